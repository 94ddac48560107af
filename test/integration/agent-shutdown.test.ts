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
  // The stopping worker's model server, and the other worker's: which worker asked is which server was asked.
  let stopping: OpenAiServer;
  let other: OpenAiServer;
  let dir: string;
  beforeAll(async () => {
    stopping = await startOpenAiServer();
    other = await startOpenAiServer();
    dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-agent-shutdown-'));
  });
  afterAll(async () => {
    await stopping?.close();
    await other?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts no model call after the signal: each agent finishes its tool call and is handed back, then continues on the other worker', async ({
    onTestFinished,
  }) => {
    const model = 'shutdown-between-steps';
    for (const server of [stopping, other]) {
      server.script(model, (r) =>
        r.turn === 1
          ? { usage, toolCalls: [{ name: 'echo__slow', arguments: { ms: TOOL_MS } }] }
          : { usage, content: 'done' },
      );
    }
    const mcpServers = { echo: { command: process.execPath, args: [echoServer] } };
    const config = path.join(dir, 'worker.yaml');
    writeFileSync(
      config,
      JSON.stringify({
        worker: {
          maxConcurrentAttempts: 16,
          // Longer than the tool call: without the rule, each agent would start its next model call within it.
          shutdownGraceMs: 30_000,
          llm: { baseUrl: stopping.baseUrl, apiKeyEnv: 'TEAMRUN_TEST_AGENT_KEY' },
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
        lease: { ttlMs: 15_000, heartbeatEveryMs: 2_500 },
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
    // The other worker runs the journals (and the run) meanwhile, as a second worker of a team would: the
    // stopping worker's agents can go on writing their steps, and would start their next call if let.
    await workerForTest(
      {
        taskQueue: queue,
        identity: 'agent-other',
        config: testConfig({ llm: { baseUrl: other.baseUrl, apiKeyEnv: 'TEAMRUN_TEST_AGENT_KEY' }, mcpServers }),
      },
      onTestFinished,
    );
    const result = await handle.result();
    await victim.exited;
    expect(result.status).toBe('succeeded');
    const ours = (server: OpenAiServer) =>
      server.requests.filter((r) => r.idempotencyKey?.startsWith(`${handle.workflowId}/`));
    // Nothing the stopping worker asked reached its model server after the signal.
    expect(ours(stopping).filter((r) => r.at >= signalAt)).toEqual([]);
    for (const key of keys) {
      const turn = (server: OpenAiServer, n: number) =>
        ours(server).filter((r) => r.idempotencyKey === `${handle.workflowId}/${key}/agent/${n}`);
      // Each turn asked once: the first by the stopping worker, the second by the other one.
      expect(turn(stopping, 1).map((r) => r.status)).toEqual([200]);
      expect(turn(stopping, 2)).toEqual([]);
      expect(turn(other, 1)).toEqual([]);
      expect(turn(other, 2).map((r) => r.status)).toEqual([200]);
      // The tool result the stopping worker journaled reached the second call: the tool ran once, to its end.
      expect(
        turn(other, 2)[0]
          .messages.filter((m) => m.role === 'tool')
          .map((m) => m.content),
      ).toEqual(['slept']);
    }
    const released = await eventsOf(handle, 'lease:released');
    expect(released.map((e) => e.key).sort()).toEqual([...keys].sort());
  });
});
