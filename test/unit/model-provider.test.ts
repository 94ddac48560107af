import { createAnthropic } from '@ai-sdk/anthropic';
import { describe, expect, it } from 'vitest';
import { resolveModel } from '../../src/activities/executors/model/provider';
import { workerSecrets } from '../../src/activities/secrets';
import { ConfigSchema } from '../../src/config/config';

const config = ConfigSchema.parse({
  worker: {
    llm: { baseUrl: 'http://127.0.0.1:11434/v1', apiKeyEnv: 'LLM_KEY' },
    models: {
      claude: { provider: 'anthropic', model: 'claude-sonnet-4-5', apiKeyEnv: 'ANTHROPIC_KEY' },
      gemini: { provider: 'google', model: 'gemini-2.5-flash', baseUrl: 'http://g.test/v1beta/' },
    },
  },
});
const env = { ANTHROPIC_KEY: 'sk-ant-secret-value', LLM_KEY: 'sk-llm-secret-value' };

describe('the model a task names', () => {
  it('is one given to createWorker first, then worker.models, then worker.llm by that name', () => {
    const given = createAnthropic({ apiKey: 'x' }).languageModel('claude-given');
    expect(resolveModel('claude', config, env, { claude: given }).model).toBe(given);
    const claude = resolveModel('claude', config, env, undefined);
    expect([claude.model.provider, claude.model.modelId]).toEqual(['anthropic.messages', 'claude-sonnet-4-5']);
    // The key is known, to be redacted from whatever the call reports.
    expect(claude.secret).toEqual({ name: 'ANTHROPIC_KEY', value: 'sk-ant-secret-value' });
    const gemini = resolveModel('gemini', config, env, undefined);
    expect(gemini.model.provider).toContain('google');
    expect(gemini.origin).toBe('http://g.test/v1beta');
    const other = resolveModel('llama3', config, env, undefined);
    expect([other.model.provider, other.model.modelId]).toEqual(['openai-compatible.chat', 'llama3']);
    expect(other.where).toContain('worker.llm');
    expect(other.secret?.name).toBe('LLM_KEY');
  });

  it("worker.models keys are the worker's secrets; an openai-compatible model needs its baseUrl", () => {
    expect(workerSecrets(config, env).map((s) => s.name)).toEqual(expect.arrayContaining(['ANTHROPIC_KEY', 'LLM_KEY']));
    const refused = ConfigSchema.safeParse({
      worker: { models: { local: { provider: 'openai-compatible', model: 'q' }, 'bad name': { provider: 'x' } } },
    });
    expect(refused.success).toBe(false);
    const paths = refused.error?.issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['worker.models.local.baseUrl', 'worker.models.bad name.provider']));
  });
});
