import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, it } from 'vitest';
import { temporalAddress, testClient, waitFor } from '../helpers/env';
import { workerForTest, type OnTestFinished } from '../helpers/scenario';
import { teamRunHandle } from '../../src/client';

const root = path.resolve(__dirname, '..', '..');
const cliMain = path.join(root, 'dist/main.js');
const TOKEN = 'test-token-0123456789abcdef';
/** Holds on its first attempt; a later attempt succeeds at once. */
const holdFirstAttempt = { kind: 'shell', command: '[ "$TEAMRUN_ATTEMPT" = 1 ] && exec sleep 600; true' };

const serverArgs = (taskQueue: string, actor: string) => [
  cliMain,
  'mcp',
  '--address',
  temporalAddress(),
  '--task-queue',
  taskQueue,
  '--actor',
  actor,
];

async function call(client: Client, name: string, args: Record<string, unknown>) {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** A tool's answer, which must not be a refusal. */
async function ok<T = Record<string, unknown>>(client: Client, name: string, args: Record<string, unknown>) {
  const result = await call(client, name, args);
  if (result.isError) throw new Error(`${name} refused: ${JSON.stringify(result.content)}`);
  return result.structuredContent as T;
}

const textOf = (result: CallToolResult) => (result.content[0] as { text: string }).text;

async function stdioClient(
  taskQueue: string,
  actor: string,
  finished: OnTestFinished,
  config?: Record<string, unknown>,
): Promise<Client> {
  const env: Record<string, string> = { ...(process.env as Record<string, string>), TEAMRUN_ACTOR: '' };
  if (config) {
    env.TEAMRUN_CONFIG = path.join(mkdtempSync(path.join(os.tmpdir(), 'mcp-config-')), 'teamrun.yaml');
    writeFileSync(env.TEAMRUN_CONFIG, JSON.stringify(config));
  }
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: serverArgs(taskQueue, actor),
    env,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'mcp-test', version: '1' });
  await client.connect(transport);
  finished(() => client.close());
  return client;
}

/** `teamrun mcp --http --port 0` as a user starts it; resolves with its URL once it says where it listens. */
async function httpServer(taskQueue: string, actor: string, finished: OnTestFinished): Promise<URL> {
  const child = spawn(process.execPath, [...serverArgs(taskQueue, actor), '--http', '--port', '0'], {
    env: { ...process.env, TEAMRUN_MCP_TOKEN: TOKEN },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  finished(() => void child.kill('SIGTERM'));
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const url = await waitFor('the MCP server to listen', () => /serving (http:\/\/\S+\/mcp)/.exec(err)?.[1], 30_000);
  return new URL(url);
}

async function httpClient(url: URL, finished: OnTestFinished): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
  });
  const client = new Client({ name: 'mcp-test', version: '1' });
  await client.connect(transport);
  finished(() => client.close());
  return client;
}

describe.concurrent('teamrun mcp', () => {
  it('over stdio: an agent starts a run, interrupts a task, sees it in adjudication, decides it, reads events', async ({
    expect,
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const mcp = await stdioClient(worker.taskQueue, 'alice', onTestFinished);

    const { tools } = await mcp.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        'validate_plan',
        'start_run',
        'run_status',
        'list_runs',
        'list_tasks',
        'task_log',
        'interrupt_task',
        'steer_task',
        'abort_run',
        'adjudicate',
        'reopen_task',
        'approve',
        'add_tasks',
        'send_message',
        'read_events',
      ].sort(),
    );
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.run_status.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.interrupt_task.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.start_run.inputSchema.properties).toHaveProperty('plan.properties.tasks');

    const plan = {
      name: 'mcp-stdio',
      lease: { ttlMs: 15_000, heartbeatEveryMs: 1_500 },
      governance: { operators: ['alice'] },
      tasks: [
        { key: 'edit', executor: holdFirstAttempt },
        { key: 'after', dependsOn: ['edit'], executor: { kind: 'noop' } },
      ],
    };
    const { runId } = await ok<{ runId: string }>(mcp, 'start_run', { plan });
    expect(runId).toMatch(/^mcp-stdio-/);

    const leased = await waitFor('edit to be leased', async () => {
      const { tasks } = await ok<{ tasks: Array<{ key: string; status: string }> }>(mcp, 'list_tasks', {
        runId,
        status: 'leased',
      });
      return tasks.find((t) => t.key === 'edit');
    });
    expect(leased).toMatchObject({ fencingToken: 1 });

    // waitMs without a cursor waits for a change from the run as the call finds it: nothing moves while edit is
    // held, so it waits (progress notifications) and answers unchanged. (It used to answer at once.)
    const idle: string[] = [];
    const unmoved = (
      (await mcp.callTool({ name: 'run_status', arguments: { runId, waitMs: 2_500 } }, undefined, {
        onprogress: (p) => void idle.push(p.message ?? ''),
        timeout: 60_000,
      })) as CallToolResult
    ).structuredContent as { changed: boolean; state: string };
    expect([unmoved.changed, unmoved.state, idle.length > 0]).toEqual([false, 'running', true]);

    // A long poll from the status read before the interruption: progress notifications while it waits, and
    // it returns once the run moves.
    const first = await ok<{ cursor: string }>(mcp, 'run_status', { runId });
    const progress: string[] = [];
    const waiting = mcp.callTool(
      { name: 'run_status', arguments: { runId, cursor: first.cursor, waitMs: 30_000 } },
      undefined,
      {
        onprogress: (p) => void progress.push(p.message ?? ''),
        timeout: 60_000,
      },
    );
    await waitFor('a progress notification', () => progress.length > 0, 60_000);
    expect(progress[0]).toMatch(/^running: 0 of 2 tasks settled, waiting/);
    const interrupted = await ok(mcp, 'interrupt_task', { runId, key: 'edit', reason: 'going astray' });
    expect(interrupted).toMatchObject({ ok: true, interruption: { key: 'edit', actor: 'alice', fencingToken: 1 } });
    let status = ((await waiting) as CallToolResult).structuredContent as {
      cursor: string;
      changed: boolean;
      pendingAdjudications: Array<Record<string, unknown>>;
    };
    expect(status.changed).toBe(true);
    while (status.pendingAdjudications.length === 0)
      status = await ok<typeof status>(mcp, 'run_status', { runId, cursor: status.cursor, waitMs: 10_000 });
    expect(status.pendingAdjudications).toEqual([
      expect.objectContaining({
        key: 'edit',
        code: 'TEAM_TASK_HUMAN_INTERRUPTED',
        actor: 'alice',
        reason: 'going astray',
      }),
    ]);

    const decided = await ok(mcp, 'adjudicate', { runId, key: 'edit', decision: 'retry', decisionId: 'd-1' });
    expect(decided).toMatchObject({ ok: true, task: { key: 'edit', status: 'ready' } });
    const result = await teamRunHandle(await testClient(), runId).result();
    expect(result.status).toBe('succeeded');
    // A closed run cannot be reopened: the refusal says what to do instead.
    const reopened = await call(mcp, 'reopen_task', { runId, key: 'edit', reason: 'looked wrong after all' });
    expect(reopened.isError).toBe(true);
    expect(textOf(reopened)).toMatch(/run_closed.*cannot be reopened: start a new run/);

    // Events in pages of 4: each page continues where the last ended, and together they tell the story.
    const seen: Array<{ seq: number; type: string }> = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await ok<{ events: Array<{ seq: number; type: string }>; nextCursor: string; gap: unknown }>(
        mcp,
        'read_events',
        { runId, limit: 4, ...(cursor ? { cursor } : {}) },
      );
      expect(page.gap).toBeNull();
      seen.push(...page.events);
      if (page.events.length < 4) break;
      cursor = page.nextCursor;
    }
    expect(seen.map((e) => e.seq)).toEqual(seen.map((_, i) => i + 1));
    const types = seen.map((e) => e.type);
    for (const type of ['task:interrupt-requested', 'task:adjudication-required', 'task:adjudicated', 'run:end'])
      expect(types).toContain(type);
  });

  it('a read-only server refuses every tool that changes state; mcp.startPlans bounds what start_run starts', async ({
    expect,
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const plan = (name: string, operators?: string[]) => ({
      name,
      ...(operators ? { governance: { operators } } : {}),
      tasks: [{ key: 'a', executor: { kind: 'noop' } }],
    });
    const readOnly = await stdioClient(worker.taskQueue, 'alice', onTestFinished, { mcp: { readOnly: true } });
    const refused = await call(readOnly, 'start_run', { plan: plan('ro') });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^read_only: start_run changes state and this server is read-only/);
    expect(textOf(await call(readOnly, 'abort_run', { runId: 'any' }))).toMatch(/^read_only: /);
    expect((await call(readOnly, 'validate_plan', { plan: plan('ro') })).isError).toBeFalsy();

    const bounded = await stdioClient(worker.taskQueue, 'alice', onTestFinished, {
      mcp: { startPlans: ['nightly-*'] },
    });
    expect(textOf(await call(bounded, 'start_run', { plan: plan('other', ['alice']) }))).toMatch(
      /^start_not_allowed: plan "other" is not one this server may start \(mcp.startPlans: nightly-\*\)/,
    );
    // A plan that hands its run to someone else (or to no one) is refused too.
    expect(textOf(await call(bounded, 'start_run', { plan: plan('nightly-docs', ['mallory']) }))).toMatch(
      /^start_not_allowed: a plan started here must list this server's actor "alice" in governance.operators/,
    );
    expect(textOf(await call(bounded, 'start_run', { plan: plan('nightly-docs') }))).toMatch(/^start_not_allowed: /);
    // A plan whose task reserves more up front than its run has is refused as `teamrun start` refuses it.
    const over = {
      name: 'nightly-over',
      governance: { operators: ['alice'] },
      budget: { maxTokens: 100 },
      tasks: [{ key: 'a', estimate: { tokens: 500 }, executor: { kind: 'noop' } }],
    };
    expect(textOf(await call(bounded, 'start_run', { plan: over }))).toMatch(
      /^invalid_plan: 1 problem\(s\): tasks\[0\]\.estimate\.tokens: task "a" reserves 500 tokens \(its estimate\) before it starts, more than the run's budget\.maxTokens 100/,
    );
    const { runId } = await ok<{ runId: string }>(bounded, 'start_run', { plan: plan('nightly-docs', ['alice']) });
    expect((await teamRunHandle(await testClient(), runId).result()).status).toBe('succeeded');
  });

  it('over HTTP: refuses a call without the token, and an actor outside governance.operators with the code', async ({
    expect,
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const url = await httpServer(worker.taskQueue, 'mallory', onTestFinished);

    const bare = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(bare.status).toBe(401);
    const wrong = await fetch(url, { method: 'POST', headers: { authorization: 'Bearer not-the-token' }, body: '{}' });
    expect(wrong.status).toBe(401);

    const noToken = spawn(process.execPath, [...serverArgs(worker.taskQueue, 'mallory'), '--http'], {
      env: { ...process.env, TEAMRUN_MCP_TOKEN: '' },
    });
    let said = '';
    noToken.stderr.setEncoding('utf8').on('data', (d: string) => (said += d));
    expect(await new Promise((resolve) => noToken.on('close', resolve))).toBe(1);
    expect(said).toContain('teamrun mcp --http needs a bearer token: set TEAMRUN_MCP_TOKEN');

    const mcp = await httpClient(url, onTestFinished);
    expect((await mcp.listTools()).tools).toHaveLength(15);

    const invalid = await ok<{ ok: boolean; problems: Array<{ path: string }> }>(mcp, 'validate_plan', {
      plan: { name: 'bad', tasks: [{ key: 'a', dependsOn: ['b'], executor: { kind: 'noop' } }] },
    });
    expect(invalid).toMatchObject({
      ok: false,
      problems: [expect.objectContaining({ path: 'tasks[0].dependsOn[0]' })],
    });
    // A plan it accepts comes with what it allows but may not mean: a shell task holding a fair share of maxTokens.
    const shares = {
      name: 'shares',
      teammates: 1,
      budget: { maxTokens: 1_000 },
      tasks: [{ key: 'sh', executor: { kind: 'shell', command: 'true' } }],
    };
    expect(await ok(mcp, 'validate_plan', { plan: shares })).toMatchObject({
      ok: true,
      notes: [
        expect.stringMatching(
          /^1 task\(s\) with no estimate for a limit the plan sets hold a fair share of the budget while they run \(sh\): .* 1,000 tokens on a fresh budget/,
        ),
      ],
    });

    const plan = {
      name: 'mcp-http',
      lease: { ttlMs: 15_000, heartbeatEveryMs: 1_500 },
      governance: { operators: ['alice'] },
      tasks: [{ key: 'hold', executor: { kind: 'shell', command: 'exec sleep 600' } }],
    };
    const { runId, notes } = await ok<{ runId: string; notes: string[] }>(mcp, 'start_run', { plan });
    // Without a token or dollar limit nothing is held: no note.
    expect(notes).toEqual([]);
    const handle = teamRunHandle(await testClient(), runId);
    onTestFinished(async () => {
      await handle.terminate('test over').catch(() => undefined);
    });
    await waitFor('hold to be leased', async () => (await handle.activeClaims()).length > 0);

    const forbidden = await call(mcp, 'interrupt_task', { runId, key: 'hold' });
    expect(forbidden.isError).toBe(true);
    expect(textOf(forbidden)).toMatch(/^forbidden: .*"mallory".*governance\.operators/);
    const abort = await call(mcp, 'abort_run', { runId, reason: 'no' });
    expect(textOf(abort)).toMatch(/^forbidden: /);
    const badArgs = await call(mcp, 'list_tasks', { runId, limit: 100_000 });
    expect(badArgs.isError).toBe(true);
    expect(textOf(badArgs)).toMatch(/^value_too_large: list_tasks: limit/);
    const unknown = await call(mcp, 'run_status', { runId: 'no-such-run' });
    expect(textOf(unknown)).toMatch(/^not_found: no run with id "no-such-run"/);
    expect((await handle.activeClaims())[0]).toMatchObject({ key: 'hold', interrupted: false });

    // A control to a run that has just ended says it ended, and how, not only that the run is not open.
    await handle.terminate('seen enough');
    const ended = await call(mcp, 'abort_run', { runId, reason: 'again' });
    expect(textOf(ended)).toMatch(
      new RegExp(`^not_found: run "${runId}" has ended: terminated at \\S+Z; an ended run takes no more controls`),
    );
  });

  it('inside a task without its attempt gateway, warns on stderr that start_run will not be linked; with it, does not', async ({
    expect,
    onTestFinished,
  }) => {
    /** What `teamrun mcp` over stdio said on stderr by the time it serves. */
    const stderrUntilServing = async (extra: Record<string, string>): Promise<string> => {
      const { TEAMRUN_ATTEMPT_SOCKET: _s, TEAMRUN_ATTEMPT_SECRET: _k, ...inherited } = process.env;
      const env = { ...inherited, TEAMRUN_FENCING_TOKEN: '7', TEAMRUN_TASK_KEY: 'coord', TEAMRUN_WORKFLOW_ID: 'run-x' };
      const child = spawn(process.execPath, serverArgs('mcp-unlinked', 'alice'), {
        env: { ...env, ...extra },
        stdio: ['pipe', 'ignore', 'pipe'],
      });
      onTestFinished(() => void child.kill('SIGTERM'));
      let said = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => (said += d));
      await waitFor('teamrun mcp to serve', () => said.includes('serving over stdio'), 30_000);
      return said;
    };

    const unlinked = await stderrUntilServing({});
    expect(unlinked).toContain(
      'teamrun mcp: WARNING: inside task "coord" of run "run-x" without its attempt\'s gateway ($TEAMRUN_ATTEMPT_SOCKET)',
    );
    expect(unlinked).toContain('attemptAccess: true under worker.mcpServers');

    const linked = await stderrUntilServing({
      TEAMRUN_ATTEMPT_SOCKET: '/nonexistent.sock',
      TEAMRUN_ATTEMPT_SECRET: 's',
    });
    expect(linked).not.toContain('WARNING');
  });
});
