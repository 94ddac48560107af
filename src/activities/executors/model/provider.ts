/**
 * The model a task names (`model:`), as an AI SDK language model (the provider interface, LanguageModelV3):
 * one given to createWorker({ models }), else one of `worker.models` built with its provider's package, else
 * `worker.llm`'s OpenAI-compatible endpoint with the name as the model id (the worker's one door before).
 * Each provider's package is loaded when a model of it is first built: a worker that calls no model loads none of
 * them (their code is the largest a worker would hold; docs/benchmarks.md, issue 42).
 */
import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { TeamrunConfig } from '../../../config/config';
import type { ModelConfig } from '../../../config/models';

/** Models a worker's code hands over (`createWorker({ models })`), by the name tasks give them. */
export type WorkerModels = Record<string, LanguageModelV3>;

export interface ResolvedModel {
  model: LanguageModelV3;
  /** Who answers, for errors: the provider and its API root (never a key). */
  where: string;
  /** The provider's API root, when the config gives it. */
  origin?: string;
  /** The key's variable and value, when one is read: whatever is reported is redacted of it. */
  secret?: { name: string; value: string };
}

export function resolveModel(
  name: string,
  config: TeamrunConfig,
  env: NodeJS.ProcessEnv,
  given: WorkerModels | undefined,
): ResolvedModel {
  if (given && Object.hasOwn(given, name)) {
    const model = given[name];
    return { model, where: `model "${name}" (${model.provider})` };
  }
  const models = config.worker.models;
  if (Object.hasOwn(models, name)) return fromConfig(name, models[name], env);
  const { baseUrl, apiKeyEnv } = config.worker.llm;
  return fromConfig(name, { provider: 'openai-compatible', model: name, baseUrl, apiKeyEnv }, env, 'worker.llm');
}

function fromConfig(name: string, spec: ModelConfig, env: NodeJS.ProcessEnv, from = `worker.models.${name}`) {
  const value = spec.apiKeyEnv ? env[spec.apiKeyEnv] : undefined;
  const secret = spec.apiKeyEnv && value ? { name: spec.apiKeyEnv, value } : undefined;
  // A key the worker has not got is sent as none: the provider's 401 then names the variable (permanentHint).
  const apiKey = value ?? '';
  const baseURL = spec.baseUrl?.replace(/\/+$/, '');
  const at = baseURL ? ` at ${baseURL}` : '';
  const where = `${from} (${spec.provider} ${spec.model}${at})`;
  const known = { where, secret, ...(baseURL ? { origin: baseURL } : {}) };
  // The SDK's own retries are off at the call (maxRetries is streamText's; doStream has none): one retry policy.
  switch (spec.provider) {
    case 'anthropic': {
      const { createAnthropic } = require('@ai-sdk/anthropic') as typeof import('@ai-sdk/anthropic');
      return { model: createAnthropic({ baseURL, apiKey }).languageModel(spec.model), ...known };
    }
    case 'openai': {
      const { createOpenAI } = require('@ai-sdk/openai') as typeof import('@ai-sdk/openai');
      // Chat completions, as every OpenAI-compatible server speaks them (not the Responses API).
      return { model: createOpenAI({ baseURL, apiKey }).chat(spec.model), ...known };
    }
    case 'google': {
      const { createGoogleGenerativeAI } = require('@ai-sdk/google') as typeof import('@ai-sdk/google');
      return { model: createGoogleGenerativeAI({ baseURL, apiKey }).languageModel(spec.model), ...known };
    }
    case 'openai-compatible': {
      const { createOpenAICompatible } =
        require('@ai-sdk/openai-compatible') as typeof import('@ai-sdk/openai-compatible');
      return {
        model: createOpenAICompatible({
          name: 'openai-compatible',
          baseURL: baseURL ?? '',
          ...(value ? { apiKey: value } : {}),
          // Usage comes in the stream's last chunk only when asked (stream_options.include_usage).
          includeUsage: true,
        }).chatModel(spec.model),
        ...known,
      };
    }
  }
}
