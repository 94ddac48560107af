import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ledgerStatus } from '../../src/ledger/client';
import { adjudicationsQuery, eventsQuery } from '../../src/workflows/messages';
import { historyAttempts } from '../helpers/history';
import { startRun, testClient, testConfig } from '../helpers/env';
import { allTaskViews, eventsOf, ledgerForTest, workerForTest } from '../helpers/scenario';

const usageLine = (tokens: number) => `echo '::teamrun-usage::{"outputTokens":${tokens}}'`;

/**
 * What `teamrun reserve --tokens K` does, without starting a Node process per call (100 attempts at
 * once on two cores): the same request to the same gateway endpoint; prints the HTTP status.
 */
const reserveStatus = (tokens: number) =>
  `curl -s -o /dev/null -w '%{http_code}' --unix-socket "$TEAMRUN_ATTEMPT_SOCKET" ` +
  `-H "Authorization: Bearer $TEAMRUN_ATTEMPT_SECRET" -d '{"tokens":${tokens}}' http://gateway/reserve`;

const tasks = (n: number, command: string) =>
  Array.from({ length: n }, (_, i) => ({ key: `t${i + 1}`, executor: { kind: 'shell', command } }));

/** Settlements per task: each attempt closes once in history, and each task here has one attempt. */
function closedPerTask(attempts: Array<{ activityId: string; outcome: string }>): Map<string, number> {
  const closed = new Map<string, number>();
  for (const a of attempts) {
    if (a.outcome === 'open') continue;
    const key = a.activityId.split('#')[0];
    closed.set(key, (closed.get(key) ?? 0) + 1);
  }
  return closed;
}

describe.concurrent('live reservations on a real dev server', () => {
  it('100 attempts at once reserve before each spend: used stays within maxTokens exactly, each refused one adjudicated once', async ({
    onTestFinished,
  }) => {
    const worker = await workerForTest({ config: testConfig({ maxConcurrentAttempts: 128 }) }, onTestFinished);
    const spend = `while [ "$(${reserveStatus(7)})" = 200 ]; do ${usageLine(7)}; done; sleep 30`;
    const handle = await startRun(
      {
        name: 'live-reserve',
        teammates: 100,
        // 100 shells asking at once on a loaded 2-core machine: the gateway's updates wait their turn (10 in flight
        // per run on the dev server), and each attempt lives through several. This test is about budgets, not leases.
        lease: { ttlMs: 60_000 },
        awaitAdjudication: false,
        budget: { maxTokens: 1_000 },
        tasks: tasks(100, spend),
      },
      worker.taskQueue,
    );
    const result = await handle.result();
    expect(result.maxConcurrent).toBe(100);
    expect(result.budget.used.tokens).toBeLessThanOrEqual(1_000);
    expect(result.budget.reserved.tokens).toBe(0);
    // What was granted was spent: each attempt stopped with less than one spend of its grant left.
    expect(result.budget.used.tokens).toBeGreaterThan(1_000 - 100 * 7);
    const records = await handle.query(adjudicationsQuery);
    expect(records).toHaveLength(100);
    // Each one refused more budget; none lost its lease. A lease is lost when a heartbeat reaches the server later
    // than the lease's margin (a third of the TTL here: 20 s): on two cores running three suites like this one at
    // once, timers lagged up to 6 s and attempts' functions started up to 15 s late, and with the old 10 s margin
    // one run in three lost an attempt that way. Should one be lost, its timings from history are printed first.
    const lost = records.filter(
      (r) => r.code === 'TEAM_TASK_ABANDONED_ADJUDICATION_REQUIRED' && r.reason?.startsWith('lease lost'),
    );
    const attempts = (await historyAttempts(handle)).filter((a) => a.activityType === 'runTask');
    for (const r of lost) {
      const a = attempts.find((each) => each.activityId.startsWith(`${r.key}#`));
      const at = (ms?: number | null) => (ms == null || !a ? '?' : `+${ms - a.scheduledAt} ms`);
      // Extensions the run granted it: proof its executor ran on the worker, and until when.
      const granted = (await eventsOf(handle, 'budget:reservation-extended')).filter((e) => e.key === r.key);
      process.stderr.write(
        `[budget-live] lost lease ${a?.activityId}: scheduled, started ${at(a?.startedAt)}, ` +
          `closed ${at(a?.closedAt)} (${a?.outcome}: ${a?.failure?.message ?? ''}); ` +
          `last heartbeat ${JSON.stringify(a?.lastHeartbeat ?? null)}; ${granted.length} extension(s) granted` +
          (granted.length ? `, first ${at(granted[0].at)}, last ${at(granted[granted.length - 1].at)}` : '') +
          '\n',
      );
    }
    const other = records.filter((r) => r.code !== 'TEAM_TASK_BUDGET_EXCEEDED');
    expect(other.map((r) => [r.key, r.code, r.reason])).toEqual([]);
    const views = await allTaskViews(handle);
    const charged = views.reduce((sum, t) => sum + t.usage.outputTokens, 0);
    // An attempt already stopped whose lease then runs out (a worker too loaded to answer its stop in time: seen
    // beside a CPU hog, 997 used against 987 reported) is settled lost, its adjudication keeping the stop's code: it
    // is charged its bound, which no task reports. What the run used is exactly what the tasks reported plus that.
    const expired = await eventsOf(handle, 'lease:expired');
    const lostCharges = expired.reduce(
      (sum, e) => sum + ((e.charged as { tokens?: number } | undefined)?.tokens ?? 0),
      0,
    );
    if (charged + lostCharges !== result.budget.used.tokens) {
      const again = views.filter((t) => t.attempts > 1).map((t) => `${t.key} x${t.attempts}`);
      // Each adjudication records the usage its settlement charged: the tasks where that differs from the task's own.
      const differ = records
        .map((r) => ({ r, view: views.find((t) => t.key === r.key) }))
        .filter(({ r, view }) => (r.usage?.outputTokens ?? 0) !== (view?.usage.outputTokens ?? 0))
        .map(({ r, view }) => `${r.key}: charged ${JSON.stringify(r.usage)}, task ${JSON.stringify(view?.usage)}`);
      process.stderr.write(
        `[budget-live] the run charged ${result.budget.used.tokens} tokens, its tasks reported ${charged}; ` +
          `lease:expired ${JSON.stringify(expired)}; tasks with more than one attempt: ${again.join(', ') || 'none'}; ` +
          `usage unknown: ${result.budget.usageUnknown}; adjudications whose usage differs: ${differ.join('; ') || 'none'}\n`,
      );
    }
    expect(charged + lostCharges).toBe(result.budget.used.tokens);
    const closed = closedPerTask(attempts);
    expect(closed.size).toBe(100);
    // A task closed more than once: print its attempts as history has them (seen once in CI, cause not known).
    const twice = [...closed].filter(([, n]) => n !== 1).map(([key]) => key);
    for (const key of twice) {
      const mine = attempts.filter((a) => a.activityId.startsWith(`${key}#`));
      const task = views.find((t) => t.key === key);
      process.stderr.write(
        `[budget-live] ${key} closed ${closed.get(key)} times: ` +
          mine
            .map(
              (a) =>
                `${a.activityId} ${a.outcome} after ${a.closedAt === null ? '?' : a.closedAt - a.scheduledAt} ms` +
                (a.failure ? ` (${a.failure.type ?? ''}: ${a.failure.message})` : ''),
            )
            .join('; ') +
          `; task ${JSON.stringify({ status: task?.status, attempts: task?.attempts, usage: task?.usage })}; ` +
          `adjudication ${JSON.stringify(records.find((r) => r.key === key) ?? null)}\n`,
      );
    }
    expect(twice).toEqual([]);
  }, 120_000);

  it("two runs on one ledger reserve past their reservations: the ledger's maxTokens holds across both, each refused attempt adjudicated", async ({
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const client = await testClient();
    const ledger = await ledgerForTest('live-ledger', { maxTokens: 300 }, worker.taskQueue, onTestFinished);
    // The runs have no limits of their own: only the ledger can refuse. 50 spends at most, so a ledger that
    // granted everything would show (20 attempts x 350 tokens) rather than loop for ever.
    const spend =
      `i=0; while [ $i -lt 50 ] && [ "$(${reserveStatus(7)})" = 200 ]; do ${usageLine(7)}; i=$((i+1)); done; ` +
      'sleep 30';
    const run = (name: string) =>
      startRun(
        {
          name,
          teammates: 10,
          lease: { ttlMs: 60_000 },
          awaitAdjudication: false,
          budget: { ledger },
          tasks: tasks(10, spend),
        },
        worker.taskQueue,
      );
    const runs = await Promise.all([run('live-ledger-a'), run('live-ledger-b')]);
    const results = await Promise.all(runs.map((handle) => handle.result()));
    const status = await ledgerStatus(client, ledger);
    expect(status.used.tokens).toBeLessThanOrEqual(300);
    expect(status.reserved.tokens).toBe(0);
    // What the ledger granted was spent: each attempt stopped with less than one spend of its grant left.
    expect(status.used.tokens).toBeGreaterThan(300 - 20 * 7);
    // Charged once, truthfully: what the runs charged themselves is what the ledger counted.
    expect(results[0].budget.used.tokens + results[1].budget.used.tokens).toBe(status.used.tokens);
    for (const handle of runs) {
      const records = await handle.query(adjudicationsQuery);
      expect(records.map((r) => r.code)).toEqual(new Array(10).fill('TEAM_TASK_BUDGET_EXCEEDED'));
      // Named when not the ledger's limit (a slot that expired under load would say no-slot; a gateway timeout,
      // TEAM_ATTEMPT_GATEWAY_FAILED): still refused, but not for the reason this test is about.
      expect(records.filter((r) => !(r.reason ?? '').includes('(ledger-max-tokens)')).map((r) => r.reason)).toEqual([]);
    }
  }, 120_000);

  it('attempts that only print usage lines: each stopped at the first report past a refused extension', async ({
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const handle = await startRun(
      {
        name: 'live-usage-lines',
        teammates: 10,
        lease: { ttlMs: 60_000 },
        awaitAdjudication: false,
        budget: { maxTokens: 300 },
        tasks: tasks(10, `while true; do ${usageLine(7)}; sleep 0.01; done`),
      },
      worker.taskQueue,
    );
    const result = await handle.result();
    // Why each was stopped, first: a task stopped for another reason (a lease lost under load, a run stopped for
    // unknown usage) fails here with its reason rather than below with a usage of 0.
    const records = await handle.query(adjudicationsQuery);
    expect(records.filter((r) => r.code !== 'TEAM_TASK_BUDGET_EXCEEDED').map((r) => [r.key, r.code, r.reason])).toEqual(
      [],
    );
    expect(records).toHaveLength(10);
    const { events } = await handle.query(eventsQuery, { limit: 1_000 });
    // What each attempt held when it was refused: its reservation, then each extension.
    const grant = new Map<string, number>();
    for (const e of events) {
      if (e.type === 'task:claimed' || e.type === 'budget:reservation-extended') {
        grant.set(String(e.key), (e.reservation as { tokens: number }).tokens);
      }
    }
    for (const task of result.tasks) {
      expect(task.status).toBe('adjudication');
      expect(task.usage.outputTokens).toBeGreaterThan(grant.get(task.key)!);
      expect(task.usage.outputTokens).toBeLessThanOrEqual(grant.get(task.key)! + 7);
    }
    expect(result.budget.used.tokens).toBeLessThanOrEqual(300 + 10 * 7);
    expect(records.every((r) => (r.usage?.outputTokens ?? 0) > 0)).toBe(true);
  }, 120_000);

  it('a usage line with an extra key fails the attempt with TeamInvalidUsage, not retried', async ({
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const handle = await startRun(
      {
        name: 'live-invalid-usage',
        teammates: 1,
        lease: { ttlMs: 60_000 },
        retry: { maxAttempts: 3, backoffMs: 0 },
        budget: { maxTokens: 1_000 },
        tasks: tasks(1, `echo '::teamrun-usage::{"outputTokens":5,"tokens":5}'; sleep 30`),
      },
      worker.taskQueue,
    );
    const result = await handle.result();
    expect(result.tasks[0]).toMatchObject({ status: 'failed', attempts: 1 });
    expect(result.tasks[0].lastError).toContain('malformed ::teamrun-usage:: line');
    const [attempt] = await historyAttempts(handle);
    expect(attempt.failure).toMatchObject({ type: 'TeamInvalidUsage', nonRetryable: true });
  }, 120_000);

  it('teamrun reserve exits 0 when granted and 3 when refused (the attempt is stopped); outside a task it explains', async ({
    onTestFinished,
  }) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-reserve-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const worker = await workerForTest({}, onTestFinished);
    const codes = path.join(dir, 'codes');
    const command =
      `echo start > ${codes}; teamrun reserve --tokens 60; echo "first $?" >> ${codes}; ${usageLine(60)}; ` +
      `teamrun reserve --tokens 500; echo "second $?" >> ${codes}; sleep 30`;
    const handle = await startRun(
      {
        name: 'live-reserve-cli',
        teammates: 1,
        lease: { ttlMs: 60_000 },
        awaitAdjudication: false,
        budget: { maxTokens: 100 },
        tasks: tasks(1, command),
      },
      worker.taskQueue,
    );
    const result = await handle.result();
    expect(readFileSync(codes, 'utf8')).toBe('start\nfirst 0\nsecond 3\n');
    expect(result.tasks[0]).toMatchObject({ status: 'adjudication', attempts: 1 });
    const [record] = await handle.query(adjudicationsQuery);
    expect(record).toMatchObject({ code: 'TEAM_TASK_BUDGET_EXCEEDED', usage: { outputTokens: 60 } });
    expect(result.budget).toMatchObject({ used: { tokens: 60 }, reserved: { tokens: 0 } });

    const outside = spawnSync(process.execPath, ['bin/teamrun.js', 'reserve', '--tokens', '5'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH },
    });
    expect(outside.status).toBe(1);
    expect(outside.stderr).toContain('teamrun reserve runs inside a task');
  }, 90_000);
});
