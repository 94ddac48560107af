import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transcriptQuery } from '../../src/agent/messages';
import { journalId } from '../../src/agent/types';
import { startOpenAiServer, type OpenAiServer } from '../helpers/openai-server';
import { spawnWorkerProcess, startRun, testClient, testConfig, uniqueQueue, waitFor } from '../helpers/env';
import { eventsOf, workerForTest } from '../helpers/scenario';

const usage = { promptTokens: 100, completionTokens: 20 };
const echoServer = path.join(__dirname, '..', 'helpers', 'mcp-echo-server.mjs');
const AGENTS = 7;
/** Each agent's first answer asks for a tool that takes this long: the signal comes while all of them run it. */
const TOOL_MS = 8_000;

describe('a worker shutting down (SIGTERM) with agents between steps', () => {
  let server: OpenAiServer;
  let dir: string;
  beforeAll(async () => {
    server = await startOpenAiServer();
    dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-agent-shutdown-'));
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts no model call after the signal: each agent finishes its tool call and is handed back, then continues elsewhere', async ({
    onTestFinished,
  }) => {
    const model = 'shutdown-between-steps';
    server.script(model, (r) =>
      r.turn === 1
        ? { usage, toolCalls: [{ name: 'echo__slow', arguments: { ms: TOOL_MS } }] }
        : { usage, content: 'done' },
    );
    const mcpServers = { echo: { command: process.execPath, args: [echoServer] } };
    const config = path.join(dir, 'worker.yaml');
    writeFileSync(
      config,
      JSON.stringify({
        worker: {
          maxConcurrentAttempts: 16,
          // Longer than the tool call: without the rule, each agent would start its next model call within it.
          shutdownGraceMs: 30_000,
          llm: { baseUrl: server.baseUrl, apiKeyEnv: 'TEAMRUN_TEST_AGENT_KEY' },
          mcpServers,
        },
      }),
    );
    const queue = uniqueQueue('agent-shutdown');
    const victim = await spawnWorkerProcess({ taskQueue: queue, identity: 'agent-stopping', config });
    onTestFinished(() => void victim.child.kill('SIGKILL'));
    const keys = Array.from({ length: AGENTS }, (_, i) => `agent-${i}`);
    const handle = await startRun(
      {
        name: 'agent-shutdown',
        teammates: AGENTS,
        lease: { ttlMs: 5_000 },
        tasks: keys.map((key) => ({
          key,
          executor: { kind: 'agent', model, prompt: `Go ${key}`, tools: ['echo__slow'] },
        })),
      },
      queue,
    );
    // Between steps: every agent's journal holds its model answer and the tool call it began.
    const client = await testClient();
    const inTool = async (key: string) => {
      const journal = client.workflow.getHandle(journalId(handle.workflowId, key));
      const { entries } = await journal
        .query(transcriptQuery)
        .catch(() => ({ entries: [] as Array<{ kind: string }> }));
      return entries.some((e) => e.kind === 'tool-start');
    };
    await waitFor(
      `all ${AGENTS} agents in their tool call`,
      async () => (await Promise.all(keys.map(inTool))).every(Boolean),
      120_000,
      200,
    );
    const signalAt = Date.now();
    victim.child.kill('SIGTERM');
    await victim.exited;
    const exitAt = Date.now();
    const ours = () => server.requests.filter((r) => r.idempotencyKey?.startsWith(`${handle.workflowId}/`));
    expect(ours().filter((r) => r.at >= signalAt && r.at <= exitAt)).toEqual([]);

    await workerForTest(
      {
        taskQueue: queue,
        identity: 'agent-survivor',
        config: testConfig({ llm: { baseUrl: server.baseUrl, apiKeyEnv: 'TEAMRUN_TEST_AGENT_KEY' }, mcpServers }),
      },
      onTestFinished,
    );
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    for (const key of keys) {
      const turn = (n: number) => ours().filter((r) => r.idempotencyKey === `${handle.workflowId}/${key}/agent/${n}`);
      // Each turn asked once: the first on the stopping worker, the second on the survivor, after the signal.
      expect(turn(1).map((r) => r.status)).toEqual([200]);
      expect(turn(2).map((r) => r.status)).toEqual([200]);
      expect(turn(2)[0].at).toBeGreaterThan(exitAt);
      // The tool result the stopping worker journaled reached the second call: the tool was not run again.
      expect(
        turn(2)[0]
          .messages.filter((m) => m.role === 'tool')
          .map((m) => m.content),
      ).toEqual(['slept']);
    }
    const released = await eventsOf(handle, 'lease:released');
    expect(released.map((e) => e.key).sort()).toEqual([...keys].sort());
  });
});
