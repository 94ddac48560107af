import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { WorkflowHandle, WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { TeamPlanInput } from '../../src/plan/schema';
import type { TeamRunHandle } from '../../src/client';
import type { InterruptVerdict } from '../../src/contract';
import * as msg from '../../src/workflows/messages';
import { spawnWorkerProcess, startRun, testClient, uniqueQueue, waitFor } from '../helpers/env';
import { historyAttempts, type HistoryAttempt } from '../helpers/history';
import { allTaskViews, runForTest, workerForTest, type TaskViews } from '../helpers/scenario';

type TaskInput = TeamPlanInput['tasks'][number];

const noop = { kind: 'noop' } as const;
const usageLine = `echo '::teamrun-usage::{"inputTokens":10,"outputTokens":5}'`;

/**
 * The scenario both runs go through: `hold` (interrupted by a human, then accepted), 40 quick
 * tasks with two that fail once and retry, `lease` (its worker is frozen past the lease TTL, so
 * its first lease expires), then 60 more quick tasks.
 */
function scenarioPlan(name: string, dir: string, continueAsNewAfterEvents?: number): TeamPlanInput {
  const flaky = (key: string): TaskInput => ({
    key,
    executor: { kind: 'shell', command: `${usageLine}; test "$TEAMRUN_ATTEMPT" -ge 2` },
  });
  const warm = Array.from({ length: 40 }, (_, i): TaskInput => ({ key: `w${i}`, executor: noop }));
  const stage1 = [...warm.slice(0, 15), flaky('flaky-a'), ...warm.slice(15, 30), flaky('flaky-b'), ...warm.slice(30)];
  return {
    name,
    teammates: 3,
    lease: { ttlMs: 2_000 },
    retry: { maxAttempts: 3, backoffMs: 300 },
    // A task limit, not a token one: under a token or dollar limit the lost lease would stop the run (usage-unknown).
    budget: { maxTasks: 1_000 },
    ...(continueAsNewAfterEvents === undefined ? {} : { continueAsNewAfterEvents }),
    tasks: [
      { key: 'hold', priority: 'high', executor: { kind: 'shell', command: 'exec sleep 60' } },
      ...stage1,
      {
        key: 'lease',
        dependsOn: stage1.map((t) => t.key),
        executor: {
          kind: 'shell',
          command: `if [ "$TEAMRUN_FENCING_TOKEN" = 1 ]; then echo $$ > ${dir}/lease-1.pid; exec sleep 60; fi`,
        },
      },
      ...Array.from({ length: 60 }, (_, i): TaskInput => ({ key: `v${i}`, dependsOn: ['lease'], executor: noop })),
    ],
  };
}

const ghost = (requestId: string) => ({ key: 'ghost', fencingToken: 1, requestId });

/**
 * Signals and updates aimed at a task that does not exist, `rounds` rounds of two signals and
 * one update sent together: each must come back as a `control:rejected` event, in whatever run
 * of the chain it lands.
 */
async function pump(handle: TeamRunHandle, prefix: string, rounds: number, sent: Sent): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    const ids = [`${prefix}-${i}-a`, `${prefix}-${i}-b`, `${prefix}-${i}-u`];
    sent.signals.push(ids[0], ids[1]);
    sent.updates.push(ids[2]);
    const [, , verdict] = await Promise.all([
      handle.signal(msg.interruptTaskSignal, ghost(ids[0])),
      handle.signal(msg.interruptTaskSignal, ghost(ids[1])),
      handle.executeUpdate(msg.interruptTaskUpdate, { args: [ghost(ids[2])] }),
    ]);
    sent.verdicts.push(verdict);
  }
}

interface Sent {
  signals: string[];
  updates: string[];
  verdicts: InterruptVerdict[];
}

async function eventsOf(handle: TeamRunHandle) {
  return (await handle.query(msg.eventsQuery, { limit: 10_000 })).events;
}

/** How many handovers the run has begun and completed (its events travel with it from run to run). */
async function handovers(handle: TeamRunHandle): Promise<{ begun: number; done: number }> {
  const events = await eventsOf(handle);
  const count = (type: string) => events.filter((e) => e.type === type).length;
  return { begun: count('run:continuing-as-new'), done: count('run:continued-as-new') };
}

/**
 * Keeps pumping until the history has grown past the threshold and the current run begins a
 * handover, then waits for the next run to take over. A run that carries its long attempts hands
 * over within a workflow task or two, so what is awaited is a handover begun since pumping
 * started, not one seen in progress.
 */
async function pumpUntilHandover(handle: TeamRunHandle, prefix: string, sent: Sent): Promise<void> {
  const before = await handovers(handle);
  for (let i = 0; (await handovers(handle)).begun === before.begun; i++) {
    if (i === 100) throw new Error(`${handle.workflowId}: still not handing over after ${i} rounds of messages`);
    await pump(handle, `${prefix}-${i}`, 1, sent);
  }
  // A handover waits up to 10 s for each worker to take note of the attempts it carries: on a busy
  // machine more than the default 30 s may pass before the next run records that it took over.
  await waitFor('the next run to take over', async () => (await handovers(handle)).done > before.done, 90_000);
}

type HistoryEvent = NonNullable<Awaited<ReturnType<WorkflowHandle['fetchHistory']>>['events']>[number];

/** Every run of the chain a workflow id went through, first to last, with its history. */
async function chainOf(handle: TeamRunHandle) {
  const client = await testClient();
  const runs: Array<{ runId: string; attempts: HistoryAttempt[]; events: HistoryEvent[] }> = [];
  let runId: string | null | undefined = (handle as WorkflowHandle as WorkflowHandleWithFirstExecutionRunId)
    .firstExecutionRunId;
  while (runId) {
    const runHandle: WorkflowHandle = client.workflow.getHandle(handle.workflowId, runId);
    const events: HistoryEvent[] = (await runHandle.fetchHistory()).events ?? [];
    runs.push({ runId, attempts: await historyAttempts(runHandle), events });
    runId = events.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId;
  }
  return runs;
}

/** Drives one run of the scenario through a real worker process; `continueAsNewAfterEvents` makes it hand over. */
async function runScenario(name: string, continueAsNewAfterEvents?: number) {
  const chained = continueAsNewAfterEvents !== undefined;
  const dir = mkdtempSync(path.join(os.tmpdir(), `teamrun-${name}-`));
  const taskQueue = uniqueQueue(name);
  const worker = await spawnWorkerProcess({ taskQueue, identity: `${name}-worker` });
  onTestFinished(() => {
    worker.child.kill('SIGCONT');
    worker.child.kill('SIGKILL');
  });
  const handle = await startRun(scenarioPlan(name, dir, continueAsNewAfterEvents), taskQueue, uniqueQueue(name));
  onTestFinished(async () => {
    if ((await handle.describe()).status.name === 'RUNNING') await handle.terminate('test finished');
  });
  const sent: Sent = { signals: [], updates: [], verdicts: [] };

  // Stage 1: `hold` runs for a minute. Messages pile history up; with a small threshold the run
  // stops claiming and waits for `hold`, and the interruption lands during that handover.
  const hold = await waitFor('hold to be leased', async () =>
    (await handle.query(msg.activeClaimsQuery)).find((c) => c.key === 'hold'),
  );
  await pump(handle, 'before-handover', 15, sent);
  if (chained) await pumpUntilHandover(handle, 'until-handover-1', sent);
  const [, interrupted] = await Promise.all([
    pump(handle, 'during-handover', 10, sent),
    handle.executeUpdate(msg.interruptTaskUpdate, {
      args: [
        { key: 'hold', fencingToken: hold.fencingToken, requestId: 'take-over', actor: 'ops', reason: 'manual fix' },
      ],
    }),
  ]);
  expect(interrupted.ok).toBe(true);
  const adjudication = await waitFor('hold to await adjudication', async () =>
    (await handle.query(msg.adjudicationsQuery)).find((a) => a.key === 'hold'),
  );

  // Stage 2: `lease` runs alone; its worker freezes past the TTL, so its lease expires.
  await waitFor('lease to run alone', async () => {
    const claims = await handle.query(msg.activeClaimsQuery);
    return existsSync(path.join(dir, 'lease-1.pid')) && claims.length === 1 && claims[0].key === 'lease';
  });
  await pump(handle, 'before-freeze', 10, sent);
  if (chained) await pumpUntilHandover(handle, 'until-handover-2', sent);
  // Frozen only once the current run attends the attempt (a carried one through an adopt of its
  // own), so that its heartbeats stop and its lease expires after the TTL in this run.
  const latest = (await testClient()).workflow.getHandle(handle.workflowId);
  await waitFor('the current run to attend lease', async () => {
    const pending = (await latest.describe()).raw.pendingActivities ?? [];
    return pending.some((a) => a.activityId === 'lease#1' && a.lastStartedTime);
  });
  worker.child.kill('SIGSTOP');
  const frozenUpdates = [0, 1, 2].map((i) => {
    sent.updates.push(`frozen-${i}-u`);
    return handle.executeUpdate(msg.interruptTaskUpdate, { args: [ghost(`frozen-${i}-u`)] });
  });
  for (
    let i = 0;
    !(await historyAttempts(latest)).some((a) => a.activityId === 'lease#1' && a.outcome === 'timed-out');
    i++
  ) {
    sent.signals.push(`frozen-${i}`);
    await handle.signal(msg.interruptTaskSignal, ghost(`frozen-${i}`));
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  worker.child.kill('SIGCONT');
  await pump(handle, 'after-thaw', 5, sent);
  sent.verdicts.push(...(await Promise.all(frozenUpdates)));

  // Stage 3: the rest runs; then the run waits for a human to decide `hold`.
  const status = await waitFor('the run to await adjudication', async () => {
    const s = await handle.query(msg.statusQuery);
    return s.state === 'awaiting_adjudication' ? s : null;
  });
  const pendingAtEnd = (await handle.query(msg.adjudicationsQuery)).find((a) => a.key === 'hold');
  await handle.executeUpdate(msg.adjudicateUpdate, {
    args: [{ key: 'hold', decision: 'accept', decisionId: 'accept-hold', actor: 'ops' }],
  });
  const result = await handle.result();
  return {
    handle,
    sent,
    adjudication,
    pendingAtEnd,
    status,
    result,
    // The result holds a page of the views; the `tasks` query has them all.
    tasks: await allTaskViews(handle),
    events: await eventsOf(handle),
    chain: await chainOf(handle),
  };
}

/** What must not depend on how many runs the chain had. */
function outcome(result: msg.RunResult, views: TaskViews) {
  return {
    status: result.status,
    stats: result.stats,
    executions: result.executions,
    omittedTasks: result.omittedTasks,
    tasks: views.map((t) => ({
      key: t.key,
      status: t.status,
      attempts: t.attempts,
      fencingToken: t.fencingToken,
      usage: t.usage,
    })),
    used: { tasks: result.budget.used.tasks, tokens: result.budget.used.tokens },
    reserved: result.budget.reserved,
    adjudications: result.adjudications.map((a) => ({
      key: a.key,
      code: a.code,
      fencingToken: a.fencingToken,
      requestId: a.requestId,
      actor: a.actor,
      decision: a.decision?.decision,
    })),
  };
}

describe('continue-as-new', () => {
  it('a run that hands over to new runs several times ends exactly as one that never does', async () => {
    const [chained, single] = await Promise.all([runScenario('can-chained', 200), runScenario('can-single')]);

    // The small threshold made a chain; the default one did not.
    expect(single.chain).toHaveLength(1);
    expect(chained.chain.length).toBeGreaterThanOrEqual(4);
    for (const run of chained.chain) expect(run.events.length).toBeLessThan(1_000);

    // Everything settled once, with the same statuses, attempts, fencing tokens and budget.
    expect(outcome(chained.result, chained.tasks)).toEqual(outcome(single.result, single.tasks));
    expect(chained.result.status).toBe('succeeded');
    const byKey = Object.fromEntries(chained.tasks.map((t) => [t.key, t]));
    expect([byKey['flaky-a'].attempts, byKey['lease'].attempts, byKey['hold'].attempts, byKey['w0'].attempts]).toEqual([
      2, 2, 1, 1,
    ]);
    expect(chained.result.budget.used.tokens).toBe(60);
    // An attempt carried across a handover is adopted by the next run under the same id: still one attempt.
    const scheduled = chained.chain.flatMap((run) =>
      run.attempts.filter((a) => a.activityType === 'runTask').map((a) => a.activityId),
    );
    expect(new Set(scheduled).size).toBe(scheduled.length);
    expect(scheduled).toHaveLength(chained.result.executions);
    const completedEvents = chained.events.filter((e) => e.type === 'task:completed').map((e) => e.key);
    expect(completedEvents.sort()).toEqual(
      chained.tasks
        .filter((t) => t.key !== 'hold')
        .map((t) => t.key)
        .sort(),
    );

    // Fencing tokens keep increasing across runs: lease's second attempt was issued by a later run.
    const runOf = (activityId: string) =>
      chained.chain.findIndex((run) => run.attempts.some((a) => a.activityId === activityId));
    expect(runOf('lease#2')).toBeGreaterThan(runOf('lease#1'));
    // Its last activity (its runTask, or the adopt of a later run it was carried into) timed out.
    const lease1 = chained.chain.flatMap((run) => run.attempts.filter((a) => a.activityId === 'lease#1'));
    expect(lease1.at(-1)?.outcome).toBe('timed-out');
    expect(chained.events.filter((e) => e.type === 'lease:changed').map((e) => e.key)).toEqual(['lease']);

    // The interruption landed during a handover and its adjudication stayed pending, unchanged, across runs.
    expect(runOf('hold#1')).toBe(0);
    expect(chained.pendingAtEnd).toEqual(chained.adjudication);
    expect(chained.adjudication).toMatchObject({
      code: 'TEAM_TASK_HUMAN_INTERRUPTED',
      requestId: 'take-over',
      decision: null,
    });
    expect(chained.status.pendingAdjudications).toBe(1);

    // No signal or update sent around the switches was lost: each one is on the record once.
    for (const scenario of [chained, single]) {
      const rejected = scenario.events
        .filter((e) => e.type === 'control:rejected' && e.key === 'ghost')
        .map((e) => e.requestId);
      expect(rejected.sort()).toEqual([...scenario.sent.signals, ...scenario.sent.updates].sort());
      expect(scenario.sent.verdicts.every((v) => !v.ok && v.reason === 'not_active')).toBe(true);
    }
    const runsWithSignals = chained.chain.filter((run) =>
      run.events.some((e) => e.workflowExecutionSignaledEventAttributes),
    );
    expect(runsWithSignals.length).toBeGreaterThanOrEqual(2);
  }, 240_000);

  it('fails a task whose output is past the bound, without retrying it, and skips its dependents', async () => {
    const worker = await workerForTest();
    const handle = await runForTest(
      {
        name: 'big-output',
        retry: { maxAttempts: 3, backoffMs: 100 },
        tasks: [
          {
            key: 'report',
            executor: {
              kind: 'shell',
              command: `printf '::teamrun-output::"%s"\\n' "$(head -c 70000 /dev/zero | tr '\\0' x)"`,
            },
          },
          { key: 'publish', dependsOn: ['report'], executor: noop },
        ],
      },
      worker,
    );
    const result = await handle.result();
    const [report, publish] = result.tasks;
    expect(result.status).toBe('failed');
    expect(report).toMatchObject({ status: 'failed', attempts: 1 });
    expect(report.lastError).toMatch(/task output is 7000\d bytes, over the 65536-byte bound/);
    expect(publish.status).toBe('skipped');
  });
});
