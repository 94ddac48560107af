import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/config/config';
import { startRun, testConfig } from '../helpers/env';
import { startOpenAiServer, toolExchanges } from '../helpers/openai-server';
import { workerForTest } from '../helpers/scenario';

const root = path.resolve(__dirname, '../..');
/** Answers the names of the TEAMRUN_* variables it was started with (test/helpers/mcp-attempt-env-server.mjs). */
const attemptEnvServer = path.join(root, 'test/helpers/mcp-attempt-env-server.mjs');
const KEY_ENV = 'TEAMRUN_TEST_AGENT_KEY';
const usage = { promptTokens: 50, completionTokens: 10 };
const GATEWAY = ['TEAMRUN_ATTEMPT_SECRET', 'TEAMRUN_ATTEMPT_SOCKET'];

describe("an agent attempt's stdio MCP servers and the attempt's gateway", () => {
  it('a server without attemptAccess gets neither TEAMRUN_ATTEMPT_SECRET nor TEAMRUN_ATTEMPT_SOCKET; one with it gets both', async ({
    onTestFinished,
  }) => {
    const server = await startOpenAiServer();
    onTestFinished(() => server.close());
    // The model: asks both servers what they were started with, in one turn, then answers.
    server.script('env-agent', (request) =>
      request.turn === 1
        ? {
            usage,
            toolCalls: [
              { name: 'thirdparty__attempt_vars', arguments: {} },
              { name: 'control__attempt_vars', arguments: {} },
            ],
          }
        : { usage, content: 'asked both' },
    );
    const config = testConfig({ llm: { baseUrl: server.baseUrl, apiKeyEnv: KEY_ENV } });
    // The same program twice, as a user lists a package's server beside `teamrun mcp`: only the second opts in.
    config.worker.mcpServers = ConfigSchema.parse({
      worker: {
        mcpServers: {
          thirdparty: { command: process.execPath, args: [attemptEnvServer] },
          control: { command: process.execPath, args: [attemptEnvServer], attemptAccess: true },
        },
      },
    }).worker.mcpServers;
    const worker = await workerForTest({ config, env: { [KEY_ENV]: 'sk-agent' } }, onTestFinished);
    const handle = await startRun(
      {
        name: 'attempt-access',
        lease: { ttlMs: 10_000 },
        tasks: [
          {
            key: 'ask',
            executor: {
              kind: 'agent',
              model: 'env-agent',
              prompt: 'Ask both servers which variables they have',
              tools: ['thirdparty__attempt_vars', 'control__attempt_vars'],
            },
          },
        ],
      },
      worker.taskQueue,
    );
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    const answers = Object.fromEntries(
      toolExchanges(server.requests.at(-1)!).map((e) => [e.name, JSON.parse(e.content!) as string[]]),
    );
    // Both are the attempt's own processes: both get its identity and fencing token.
    for (const names of Object.values(answers))
      expect(names).toEqual(expect.arrayContaining(['TEAMRUN_FENCING_TOKEN', 'TEAMRUN_TASK_KEY']));
    // Only the one that opted in can act as the attempt through its gateway.
    expect(answers.thirdparty__attempt_vars.filter((name) => GATEWAY.includes(name))).toEqual([]);
    expect(answers.control__attempt_vars.filter((name) => GATEWAY.includes(name))).toEqual(GATEWAY);
  });
});
