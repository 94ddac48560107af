import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectClient, startTeamRun } from '../../src/client';
import { readLive } from '../../src/client/live';
import { loadConfig } from '../../src/config/config';
import { defineExecutor } from '../../src/worker';
import { spawnTeamrun, waitForOutput } from '../cli/teamrun-cli';
import { KEY1, codecFixture, readableStrings } from '../helpers/codec';
import { startTestWorker, temporalAddress, temporalBinary, testConfig, uniqueQueue, waitFor } from '../helpers/env';
import { mcpStdioClient } from '../helpers/mcp-client';
import { runForTest, workerForTest } from '../helpers/scenario';

const SECRET = 'sk-live-test-5e1f09a2c4';

/** Waits for `file` to exist, or the attempt to be stopped. */
async function gate(file: string, signal: AbortSignal): Promise<void> {
  while (!existsSync(file) && !signal.aborted) await new Promise((resolve) => setTimeout(resolve, 100));
}

/**
 * A custom executor that streams as a model call would: partial text and a tool call's arguments through ctx.live,
 * then holds (the model's stream open); once `first` exists the call is done, and it holds again until `second`.
 */
const talker = defineExecutor(
  z.object({ text: z.string(), first: z.string(), second: z.string() }),
  async (spec, ctx) => {
    ctx.live?.partial({ turn: 1, text: spec.text.slice(0, 8) });
    // The arguments so far end in a character no secret's forms begin with: a tail that could open a secret (the
    // attempt's own random one among them) is held back until more text comes, by design.
    ctx.live?.partial({
      turn: 1,
      text: spec.text,
      toolCalls: [{ name: 'fs__read_file', args: '{"path":"notes.txt",' }],
    });
    await gate(spec.first, ctx.signal);
    ctx.live?.done(1);
    await gate(spec.second, ctx.signal);
    return { output: 'answered' };
  },
);

function gates() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-live-'));
  return { first: path.join(dir, 'first'), second: path.join(dir, 'second') };
}

type LiveAnswer = { live: Array<{ key: string; turn: number; text: string; toolCalls?: { name: string }[] }> };

async function readEvents(client: Client, runId: string): Promise<LiveAnswer> {
  const result = (await client.callTool({ name: 'read_events', arguments: { runId } })) as CallToolResult;
  if (result.isError) throw new Error(JSON.stringify(result.content));
  return result.structuredContent as LiveAnswer;
}

describe('partial output of a model call, live (ctx.live)', () => {
  it('reaches `teamrun watch` and the MCP door before the attempt ends, redacted, and is gone once the call is done', async ({
    onTestFinished,
  }) => {
    const config = testConfig({ llm: { ...testConfig().worker.llm, apiKeyEnv: 'TEAMRUN_TEST_LIVE_KEY' } });
    const worker = await workerForTest(
      { config, executors: { talker }, env: { ...process.env, TEAMRUN_TEST_LIVE_KEY: SECRET } },
      onTestFinished,
    );
    const { first, second } = gates();
    const text = `The plan so far: read the notes, then answer (key ${SECRET})`;
    const handle = await runForTest(
      { name: uniqueQueue('live'), tasks: [{ key: 'writer', executor: { kind: 'talker', text, first, second } }] },
      worker,
    );
    const watch = spawnTeamrun(['watch', handle.workflowId]);
    onTestFinished(() => void watch.child.kill('SIGKILL'));
    const follow = spawnTeamrun(['logs', handle.workflowId, 'writer', '--follow']);
    onTestFinished(() => void follow.child.kill('SIGKILL'));
    const mcp = await mcpStdioClient(worker.taskQueue, onTestFinished, { name: 'live-test' });

    // The attempt holds (neither gate exists): what watch and the door show is the call in progress.
    await waitForOutput(
      watch,
      'writer · turn 1 · writing: The plan so far: read the notes, then answer (key [redacted:TEAMRUN_TEST_LIVE_KEY])',
    );
    expect(watch.stderr()).toContain('calls fs__read_file({"path":"notes.txt",');
    expect(watch.stderr() + watch.stdout()).not.toContain(SECRET);
    await waitForOutput(follow, 'writer · turn 1 · writing: The plan so far');
    expect(follow.child.exitCode).toBeNull();
    const during = await waitFor(
      'read_events to list the partial output',
      async () => {
        const { live } = await readEvents(mcp, handle.workflowId);
        return live.length ? live : null;
      },
      90_000,
    );
    expect(during).toEqual([
      expect.objectContaining({
        key: 'writer',
        turn: 1,
        text: 'The plan so far: read the notes, then answer (key [redacted:TEAMRUN_TEST_LIVE_KEY])',
        toolCalls: [{ name: 'fs__read_file', args: '{"path":"notes.txt",' }],
      }),
    ]);
    expect((await handle.describe()).raw.pendingActivities?.map((a) => a.activityId)).toEqual(['writer#1']);

    // The call is done while the attempt goes on: the partial line is closed, and the door lists nothing.
    writeFileSync(first, '');
    await waitForOutput(watch, 'writer · turn 1 · call ended');
    await waitForOutput(follow, 'writer · turn 1 · call ended');
    await waitFor(
      'read_events to list no partial output',
      async () => (await readEvents(mcp, handle.workflowId)).live.length === 0,
      90_000,
    );
    expect((await handle.describe()).raw.pendingActivities?.map((a) => a.activityId)).toEqual(['writer#1']);

    writeFileSync(second, '');
    const { code, stderr } = await watch.exited;
    expect(code, stderr).toBe(0);
    // Printed when it changed, not at every poll: one line for the call, one for its end.
    expect(stderr.split('\n').filter((l) => l.startsWith('writer · turn 1 · writing:'))).toHaveLength(1);
    // `logs --follow` ends with the attempt, and prints its record then.
    const followed = await follow.exited;
    expect(followed.code, followed.stderr).toBe(0);
    expect(followed.stdout).toContain('writer#1 · attempt 1 · succeeded');
    expect(followed.stdout).not.toContain(SECRET);
  });
});

describe('partial output with the payload codec on', () => {
  const fx = codecFixture();
  afterAll(() => fx.cleanup());

  it('is never plaintext where Temporal keeps it (pending attempt, history), and adds no event to the run', async ({
    onTestFinished,
  }) => {
    const queue = uniqueQueue('live-codec');
    const config = loadConfig(fx.config('live', { currentKeyId: 'k1', keys: [KEY1] }));
    config.connection.address = temporalAddress();
    config.connection.taskQueue = queue;
    const worker = await startTestWorker({ config, taskQueue: queue, executors: { talker } });
    onTestFinished(() => worker.stop());
    const client = await connectClient(config);
    onTestFinished(() => client.connection.close());
    const { first, second } = gates();
    // It ends in a character no secret's forms begin with (base64, base64url, hex): a tail that could be the start
    // of a secret (the attempt's own random one among them) is held back until more text comes, by design.
    const marker = 'PLAINTEXT-PARTIAL-9c41d.';
    const handle = await startTeamRun(
      client,
      { name: 'live-codec', tasks: [{ key: 'writer', executor: { kind: 'talker', text: marker, first, second } }] },
      { taskQueue: queue, workflowId: queue },
    );
    onTestFinished(async () => {
      if ((await handle.describe()).status.name === 'RUNNING') await handle.terminate('test finished');
    });
    // Through the codec, the client reads it...
    await waitFor(
      'the partial output through the codec',
      async () => (await readLive(client, handle.workflowId)).some((p) => p.text === marker),
      90_000,
    );
    // ... and the server holds it encrypted: the pending attempt's heartbeat details, as `temporal` shows them.
    const temporal = async (...args: string[]) =>
      JSON.parse(
        (
          await promisify(execFile)(temporalBinary(), [
            'workflow',
            ...args,
            '-w',
            handle.workflowId,
            '-o',
            'json',
            '--address',
            temporalAddress(),
          ])
        ).stdout,
      ) as unknown;
    const described = await temporal('describe', '--raw');
    expect(JSON.stringify(described)).toContain('heartbeatDetails');
    expect(readableStrings(described).filter((s) => s.includes(marker))).toEqual([]);

    writeFileSync(first, '');
    writeFileSync(second, '');
    await handle.result();
    const history = (await temporal('show')) as {
      events: { eventType: string; workflowExecutionSignaledEventAttributes?: { signalName: string } }[];
    };
    expect(readableStrings(history).filter((s) => s.includes(marker))).toEqual([]);
    // Nothing was sent to the run while it streamed: no update, and no signal but the one any attempt this long
    // sends to say where it runs (attemptRunning, the stop channel).
    const types = history.events.map((e) => e.eventType);
    expect(types.filter((t) => /UPDATE/.test(t))).toEqual([]);
    const signals = history.events.flatMap((e) => e.workflowExecutionSignaledEventAttributes?.signalName ?? []);
    expect(signals.filter((name) => name !== 'attemptRunning')).toEqual([]);
  });
});
