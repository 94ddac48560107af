import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WithStartWorkflowOperation } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createLedger, ledgerStatus } from '../../src/ledger/client';
import type { LedgerStatus } from '../../src/contract';
import { ledgerWorkflowId, type LedgerLimits } from '../../src/plan/requests/ledger';
import type { TeamPlanInput } from '../../src/plan/schema';
import * as msg from '../../src/workflows/messages';
import { teamrun } from '../cli/teamrun-cli';
import { startOpenAiServer, type OpenAiServer, type RecordedRequest } from '../helpers/openai-server';
import { startRun, testClient, testConfig, uniqueQueue, waitFor } from '../helpers/env';
import { workerForTest } from '../helpers/scenario';

const KEY_ENV = 'TEAMRUN_TEST_AGENT_KEY';
const quiet = { awaitAdjudication: false, retry: { maxAttempts: 1 }, lease: { ttlMs: 15_000 } };
const sq = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** A shell task that waits for `<dir>/<name>`, then prints `lines`. */
const gated = (key: string, dir: string, lines: string[] = []) => ({
  key,
  allowSpawn: true,
  executor: {
    kind: 'shell',
    command: `while [ ! -f ${dir}/${key} ]; do sleep 0.1; done; ${lines.map((l) => `printf '%s\\n' ${sq(l)}`).join('; ') || 'true'}`,
  },
});
const sleeps = (key: string) => ({ key, executor: { kind: 'sleep', ms: 1 } });

describe("a shared ledger's limits across its runs: maxSpawnedTasks, maxDepth, maxTurns, maxWallMs", () => {
  let server: OpenAiServer;
  let dir: string;
  beforeAll(async () => {
    server = await startOpenAiServer();
    dir = mkdtempSync(path.join(os.tmpdir(), 'ledger-tree-'));
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const worker = () =>
    workerForTest(
      { config: testConfig({ llm: { baseUrl: server.baseUrl, apiKeyEnv: KEY_ENV } }), env: { [KEY_ENV]: 'sk' } },
      onTestFinished,
    );
  async function newLedger(name: string, limits: LedgerLimits, taskQueue: string): Promise<string> {
    const id = uniqueQueue(name);
    await createLedger(await testClient(), id, limits, { taskQueue });
    return id;
  }
  const plan = (name: string, ledger: string, tasks: TeamPlanInput['tasks'], budget = {}): TeamPlanInput => ({
    name,
    teammates: 2,
    ...quiet,
    budget: { ledger, ...budget },
    tasks,
  });

  it('two runs share maxSpawnedTasks 3 (shares 2 and 1), no addition goes past a share or maxDepth 1, each charged what it added', async () => {
    const w = await worker();
    const client = await testClient();
    const ledger = await newLedger('spawns', { maxSpawnedTasks: 3, maxDepth: 1 }, w.taskQueue);
    const planned = `::teamrun-tasks::${JSON.stringify({ tasks: [sleeps('b-late')] })}`;
    // A asks for its own limit, 2; B sets none and asks for all it may add, and gets what is left: 1.
    const a = await startRun(plan('spawns-a', ledger, [gated('a-gate', dir)], { maxSpawnedTasks: 2 }), w.taskQueue);
    await waitFor('A registered', async () => (await ledgerStatus(client, ledger)).runs.length === 1);
    const b = await startRun(plan('spawns-b', ledger, [gated('b-gate', dir, [planned])]), w.taskQueue);
    await waitFor('B registered', async () => (await ledgerStatus(client, ledger)).runs.length === 2);
    const status = await ledgerStatus(client, ledger);
    expect(Object.fromEntries(status.runs.map((r) => [r.workflowId, r.spawns]))).toEqual({
      [a.workflowId]: 2,
      [b.workflowId]: 1,
    });
    expect(status).toMatchObject({ spawnsHeld: 3, remaining: { spawnedTasks: 0 } });

    const add = (handle: typeof a, requestId: string, keys: string[], parent?: string) =>
      handle.executeUpdate(msg.addTasksUpdate, {
        args: [{ requestId, ...(parent ? { parent } : {}), tasks: keys.map(sleeps) }],
      });
    // What the update's failure says (its cause: the run's refusal).
    const refused = (sent: Promise<unknown>) =>
      sent.then(
        () => 'accepted',
        (err: Error) => (err.cause instanceof Error ? err.cause.message : err.message),
      );
    expect(await refused(add(b, 'b1', ['b-one', 'b-two']))).toContain(
      "adding 2 task(s) to the 0 already added would pass the run's share of ledger " +
        `${ledger}'s maxSpawnedTasks (1)`,
    );
    await expect(add(b, 'b2', ['b-one'])).resolves.toMatchObject({ ok: true, added: ['b-one'] });
    await expect(add(a, 'a1', ['a-one'], 'a-gate')).resolves.toMatchObject({ ok: true });
    // a-one is at depth 1: a task under it would be at depth 2.
    expect(await refused(add(a, 'a2', ['a-two'], 'a-one'))).toContain(`past ledger ${ledger}'s maxDepth (1)`);

    // B's gate prints one more task on settling: past its share, it goes to adjudication and adds nothing.
    writeFileSync(path.join(dir, 'a-gate'), '');
    writeFileSync(path.join(dir, 'b-gate'), '');
    const [ra, rb] = await Promise.all([a.result(), b.result()]);
    expect(ra).toMatchObject({ status: 'succeeded', stats: { total: 2, succeeded: 2 } });
    expect(rb.adjudications).toMatchObject([{ key: 'b-gate', code: 'TEAM_TASK_SPAWN_LIMIT_EXCEEDED' }]);
    expect(rb.adjudications[0].reason).toContain(`ledger ${ledger}'s maxSpawnedTasks (1)`);
    expect(rb.stats.total).toBe(2);
    const after = await ledgerStatus(client, ledger);
    // Each run was charged what it added (1 each), and gave the rest of its share back.
    expect(after).toMatchObject({ runs: [], spawnsHeld: 0, used: { spawnedTasks: 2 }, remaining: { spawnedTasks: 1 } });
  });

  it("an addTasks sent with the run's start (update-with-start) waits for the ledger's answer, then keeps to the share", async () => {
    const w = await worker();
    const client = await testClient();
    const ledger = await newLedger('with-start', { maxSpawnedTasks: 2 }, w.taskQueue);
    const workflowId = uniqueQueue('with-start');
    const start = new WithStartWorkflowOperation(msg.WORKFLOW_TYPE, {
      workflowId,
      taskQueue: w.taskQueue,
      workflowIdConflictPolicy: 'FAIL',
      args: [plan('with-start', ledger, [sleeps('first')])],
    });
    const sent = client.workflow.executeUpdateWithStart(msg.addTasksUpdate, {
      args: [{ requestId: 'early', tasks: [sleeps('x'), sleeps('y'), sleeps('z')] }],
      startWorkflowOperation: start,
    });
    const why = await sent.then(
      () => 'accepted',
      (err: Error) => (err.cause instanceof Error ? err.cause.message : err.message),
    );
    // The update came in the run's first workflow task, before the ledger answered its registration: it waited, and
    // was then checked against the share the ledger gave (2), not let through unbounded.
    expect(why).toContain(`would pass the run's share of ledger ${ledger}'s maxSpawnedTasks (2)`);
    const handle = await start.workflowHandle();
    const result = await handle.result();
    expect(result).toMatchObject({ status: 'succeeded', stats: { total: 1 } });
  });

  it('a workflow started under the id of a terminated run on the ledger is another run: the first is charged its whole share', async () => {
    const w = await worker();
    const client = await testClient();
    const ledger = await newLedger('replaced', { maxSpawnedTasks: 10 }, w.taskQueue);
    const first = await startRun(plan('replaced', ledger, [gated('never', dir)], { maxSpawnedTasks: 4 }), w.taskQueue);
    await waitFor('the first run registered', async () => (await ledgerStatus(client, ledger)).runs.length === 1);
    await first.executeUpdate(msg.addTasksUpdate, { args: [{ requestId: 'r1', tasks: [sleeps('x'), sleeps('y')] }] });
    // Terminated, it never unregisters: the ledger still holds its share of 4 (it added 2).
    await first.terminate('gone');
    // Someone with start rights starts a teamRun under the same id: it adds nothing and would unregister saying so.
    const second = await startRun(
      plan('replaced', ledger, [sleeps('quick')], { maxSpawnedTasks: 4 }),
      w.taskQueue,
      first.workflowId,
    );
    expect(await second.result()).toMatchObject({ status: 'succeeded' });
    const status = await ledgerStatus(client, ledger);
    // The first's whole share was charged when the second registered; the second was charged the 0 it added.
    expect(status).toMatchObject({ runs: [], spawnsHeld: 0, used: { spawnedTasks: 4 } });
    expect(status.recentEvents.map((e) => e.type)).toContain('run:replaced');
  });

  it('teamrun ledger create takes the limits across runs, status prints them, and raising one is a loosening', async () => {
    const w = await worker();
    const id = uniqueQueue('cli-tree');
    const env = { TEAMRUN_TASK_QUEUE: w.taskQueue };
    const flags = ['--max-spawned-tasks', '500', '--max-turns', '2000', '--max-depth', '3', '--max-wall', '2h'];
    const created = await teamrun(['ledger', 'create', id, ...flags], env);
    expect(created.stderr).toBe('');
    expect(created.stdout).toContain('  turns      0 of 2,000 model calls granted');
    expect(created.stdout).toContain('  spawned    0 added by runs that left, 0 held by registered runs, of 500');
    expect(created.stdout).toContain('  each run   maxDepth 3, maxWallMs 7,200,000 at most');
    const bad = await teamrun(['ledger', 'create', id, '--max-turns', 'many'], env);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('"many" is not a non-negative integer');
    // A wait past a day is refused before anything is sent (a Node timer past 24.8 days would fire at once).
    const forever = await teamrun(['ledger', 'create', id, '--wait', '30d'], env);
    expect(forever.code).not.toBe(0);
    expect(forever.stderr).toContain('"30d" is not a wait from 1s to 1d');
    const looser = await teamrun(['ledger', 'create', id, ...flags.slice(0, 6), '--max-wall', '3h'], env);
    expect(looser.code).not.toBe(0);
    expect(looser.stderr).toContain('maxWallMs 7200000 -> 10800000');
    // On a queue no worker polls, the ledger's workflow never answers: the command says what it waits for, and
    // gives up at --wait (2 minutes unless given), saying what was done.
    const lonely = uniqueQueue('cli-lonely');
    try {
      const began = Date.now();
      const waited = await teamrun(['ledger', 'create', lonely, '--max-turns', '5', '--wait', '8s'], {
        TEAMRUN_TASK_QUEUE: `${lonely}-q`,
      });
      expect(waited.code).toBe(1);
      expect(Date.now() - began).toBeGreaterThanOrEqual(8_000);
      expect(waited.stderr).toContain(`runs on task queue "${lonely}-q", and waits for a worker there`);
      expect(waited.stderr).toContain(`ledger ${lonely}: no answer within 8 s (--wait)`);
      expect(waited.stderr).toContain(`check with \`teamrun ledger status ${lonely}\``);
    } finally {
      await (
        await testClient()
      ).workflow
        .getHandle(ledgerWorkflowId(lonely))
        .terminate('test over')
        .catch(() => undefined);
    }
    const json = JSON.parse((await teamrun(['ledger', 'status', id, '--json'], env)).stdout) as LedgerStatus;
    expect(json).toMatchObject({
      limits: { maxSpawnedTasks: 500, maxTurns: 2_000, maxDepth: 3, maxWallMs: 7_200_000 },
      used: { turns: 0, spawnedTasks: 0 },
      spawnsHeld: 0,
      remaining: { turns: 2_000, spawnedTasks: 500 },
    });
  });

  it('a team task on a ledger: its child runs on the ledger (its attempts take the slots), each spend charged once', async () => {
    const w = await worker();
    const client = await testClient();
    const ledger = await newLedger('team-on', { maxTokens: 10_000, maxSpawnedTasks: 5 }, w.taskQueue);
    const spends = (key: string) => ({
      key,
      executor: { kind: 'shell', command: `echo '::teamrun-usage::{"inputTokens":100}'` },
    });
    const handle = await startRun(
      plan('team-on', ledger, [
        spends('own'),
        {
          key: 'A',
          executor: { kind: 'team', plan: { name: 'team-on-child', ...quiet, tasks: [spends('a1'), spends('a2')] } },
        },
      ]),
      w.taskQueue,
    );
    const result = await handle.result();
    // Before: the child was carved 0 tokens (its team task's ledger grant) and stopped max-tokens at once.
    expect(result).toMatchObject({ status: 'succeeded', stats: { total: 2, succeeded: 2 } });
    expect(result.budget.used.tokens).toBe(300);
    const status = await ledgerStatus(client, ledger);
    // The run's own attempt and the child's two took slots; the team task took none, and nothing was charged twice.
    expect(status).toMatchObject({ used: { tokens: 300 }, counters: { acquired: 3, settled: 3 }, runs: [] });
    const registered = status.recentEvents.filter((e) => e.type === 'run:registered').map((e) => e.workflowId);
    expect(registered).toEqual([handle.workflowId, `${handle.workflowId}/A#1`]);
  });

  it('two agents on a ledger with maxTurns 3, each wanting 2 model calls: the model gets 3 calls, the 4th is refused first', async () => {
    const w = await worker();
    const ledger = await newLedger('turns', { maxTurns: 3 }, w.taskQueue);
    server.script('ledger-turns-two', (r: RecordedRequest) =>
      r.turn < 2
        ? {
            usage: { promptTokens: 10, completionTokens: 2 },
            toolCalls: [{ name: 'teamrun__set_output', arguments: { output: r.turn } }],
          }
        : { usage: { promptTokens: 10, completionTokens: 2 }, content: 'done' },
    );
    const agent = {
      key: 'think',
      executor: {
        kind: 'agent',
        model: 'ledger-turns-two',
        prompt: 'Go',
        maxTokens: 100,
        tools: ['teamrun__set_output'],
      },
    };
    const calls = (workflowId: string) =>
      server.requests.filter((r) => r.idempotencyKey?.startsWith(`${workflowId}/`) && !r.aborted).length;
    // One after the other, so which run meets the limit is known.
    const first = await startRun(plan('turns-first', ledger, [agent]), w.taskQueue);
    expect(await first.result()).toMatchObject({ status: 'succeeded' });
    const second = await startRun(plan('turns-second', ledger, [agent]), w.taskQueue);
    const result = await second.result();
    expect([calls(first.workflowId), calls(second.workflowId)]).toEqual([2, 1]);
    expect(result.adjudications).toMatchObject([{ key: 'think', code: 'TEAM_TASK_BUDGET_EXCEEDED' }]);
    expect(result.adjudications[0].reason).toContain('maxTurns 3');
    // The refused call is not counted by the run either.
    expect(result.budget.used.turns).toBe(1);
    expect(await ledgerStatus(await testClient(), ledger)).toMatchObject({
      used: { turns: 3 },
      remaining: { turns: 0 },
    });
  });

  it("a ledger's maxWallMs 3 s stops a run whose own plan allows 10 minutes, as its own limit would", async () => {
    const w = await worker();
    const ledger = await newLedger('wall', { maxWallMs: 3_000 }, w.taskQueue);
    const started = Date.now();
    const handle = await startRun(
      plan('wall', ledger, [{ key: 'long', executor: { kind: 'sleep', ms: 120_000 } }], { maxWallMs: 600_000 }),
      w.taskQueue,
    );
    const result = await handle.result();
    const took = Date.now() - started;
    console.log(`ledger maxWallMs 3,000: the run ended ${result.status} after ${took} ms`);
    expect(result.budget.limits.maxWallMs).toBe(3_000);
    expect(result.budgetReason).toBe('max-wall-ms');
    expect(took).toBeLessThan(60_000);
  });
});
