import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAiServer, type OpenAiServer } from '../helpers/openai-server';
import { spawnWorkerProcess, startRun, testConfig, uniqueQueue, waitFor } from '../helpers/env';
import { workerForTest } from '../helpers/scenario';

const usage = { promptTokens: 100, completionTokens: 20 };

describe('an agent whose worker is killed (kill -9) mid-loop', () => {
  let server: OpenAiServer;
  let dir: string;
  beforeAll(async () => {
    server = await startOpenAiServer();
    dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-agent-crash-'));
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('continues on another worker from its journal: each completed turn reached the model once', async ({
    onTestFinished,
  }) => {
    // Turns 1 and 2 ask for a tool; turn 3 hangs on the first worker (killed meanwhile), then answers.
    let thirdCalls = 0;
    server.script('agent-crash', (r) => {
      if (r.turn < 3) return { usage, toolCalls: [{ name: 'teamrun__set_output', arguments: { output: r.turn } }] };
      thirdCalls++;
      return thirdCalls === 1 ? { usage, delayMs: 60_000 } : { usage, content: 'finished after the crash' };
    });
    const config = path.join(dir, 'worker.yaml');
    writeFileSync(
      config,
      `worker:\n  shutdownGraceMs: 500\n  llm: { baseUrl: "${server.baseUrl}", apiKeyEnv: TEAMRUN_TEST_AGENT_KEY }\n`,
    );
    const queue = uniqueQueue('agent-crash');
    const victim = await spawnWorkerProcess({ taskQueue: queue, identity: 'agent-victim', config });
    onTestFinished(() => void victim.child.kill('SIGKILL'));
    const handle = await startRun(
      {
        name: 'agent-crash',
        lease: { ttlMs: 2_000 },
        tasks: [
          {
            key: 'loop',
            executor: { kind: 'agent', model: 'agent-crash', prompt: 'Go', tools: ['teamrun__set_output'] },
          },
        ],
      },
      queue,
    );
    const ours = () => server.requests.filter((r) => r.idempotencyKey?.startsWith(`${handle.workflowId}/`));
    await waitFor('the third model call', () => ours().some((r) => r.turn === 3), 60_000);
    victim.child.kill('SIGKILL');
    await victim.exited;
    await workerForTest(
      {
        taskQueue: queue,
        identity: 'agent-survivor',
        config: testConfig({ llm: { baseUrl: server.baseUrl, apiKeyEnv: 'TEAMRUN_TEST_AGENT_KEY' } }),
      },
      onTestFinished,
    );
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    expect(result.tasks[0]).toMatchObject({ attempts: 2, output: 2 });
    const byTurn = (turn: number) => ours().filter((r) => r.turn === turn);
    expect(byTurn(1)).toHaveLength(1);
    expect(byTurn(2)).toHaveLength(1);
    // The call in flight at the kill was never answered: the next attempt asked it again.
    expect(byTurn(3).map((r) => r.status)).toEqual([null, 200]);
    // The second attempt's conversation holds both tool results the first one journaled.
    expect(
      byTurn(3)[1]
        .messages.filter((m) => m.role === 'tool')
        .map((m) => m.content),
    ).toEqual(['output set', 'output set']);
  });
});
