import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { withFencedStore } from '../../src/fenced';
import type { TeamPlanInput } from '../../src/plan/schema';
import * as msg from '../../src/workflows/messages';
import { loadRunReport } from '../../src/report';
import { testClient, uniqueQueue, waitFor } from '../helpers/env';
import { historyAttempts } from '../helpers/history';
import { spawnPythonWorker, venvPython } from '../helpers/foreign-workers';
import { runForTest, workerForTest } from '../helpers/scenario';
import { expectNotScheduled } from '../helpers/standalone';
import { eventsOf, heartbeatReached, root, taskOf, tempDir } from './leases-helpers';

const TTL_MS = 3_000;
/** A lease no test here means to lose: 15 s, so a loaded machine's late heartbeat does not, at the pace of 3 s's. */
const ROOMY_LEASE = { ttlMs: 15_000, heartbeatEveryMs: 1_500 };

/** What a marker file of the Python worker says, once it is there. */
function marker<T = Record<string, unknown>>(dir: string, name: string, what = `marker ${name}`): Promise<T> {
  const file = path.join(dir, name);
  return waitFor(what, () => (existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : null), 60_000);
}

/** teamrun's worker (workflows, shell tasks) on its queue, and a plan allowed to use `pyQueue`. */
async function teamrunWith(pyQueue: string) {
  const worker = await workerForTest({ taskQueue: uniqueQueue('activity-teamrun') });
  const run = (plan: Omit<TeamPlanInput, 'activityQueues'>) =>
    runForTest({ ...plan, activityQueues: [pyQueue] }, worker);
  return { worker, run };
}

describe('a Python activity (temporalio SDK, its own worker and task queue) as a task of a team run', () => {
  beforeAll(() => {
    venvPython();
  }, 600_000);

  it('runs as the attempt: its output feeds a TypeScript shell task that depends on it, and its usage is charged', async () => {
    const dir = tempDir();
    const pyQueue = uniqueQueue('py-agents');
    await spawnPythonWorker(pyQueue, 'py-research', dir);
    const { run } = await teamrunWith(pyQueue);
    const handle = await run({
      name: 'activity-python',
      lease: ROOMY_LEASE,
      budget: { maxUsd: 1 },
      tasks: [
        {
          key: 'research',
          executor: {
            kind: 'activity',
            activityType: 'research_agent',
            taskQueue: pyQueue,
            input: { topic: 'fencing', depth: 2 },
          },
        },
        {
          key: 'publish',
          dependsOn: ['research'],
          executor: { kind: 'shell', command: 'echo "::teamrun-output::{\\"from\\":$TEAMRUN_INPUTS}"' },
        },
      ],
    });
    const result = await handle.result();

    expect(result.status).toBe('succeeded');
    const research = {
      summary: 'notes on fencing (depth 2)',
      seen: {
        workflowId: handle.workflowId,
        taskKey: 'research',
        attempt: 1,
        fencingToken: 1,
        leaseId: `${handle.workflowId}/research/1`,
        holder: 'teammate-1',
        dependencies: [],
      },
    };
    expect(result.tasks.find((t) => t.key === 'research')).toMatchObject({
      status: 'succeeded',
      attempts: 1,
      output: research,
    });
    expect(result.tasks.find((t) => t.key === 'publish')).toMatchObject({
      status: 'succeeded',
      output: { from: { research } },
    });

    // The usage the Python code reported, priced by it, is on the task and in the run's budget.
    expect(result.tasks.find((t) => t.key === 'research')!.usage).toEqual({
      inputTokens: 1200,
      outputTokens: 300,
      cacheTokens: 0,
      costUsd: 0.0042,
    });
    expect(result.budget.used).toMatchObject({ tasks: 2, tokens: 1500, usd: 0.0042 });
    expect(result.budgetReason).toBeNull();

    // The attempt was the Python activity itself, on its queue, picked up by the Python worker.
    const [attempt] = (await historyAttempts(handle)).filter((a) => a.activityId === 'research#1');
    expect(attempt).toMatchObject({ activityType: 'research_agent', outcome: 'completed', startedBy: 'py-research' });
    const scheduled = (await handle.fetchHistory()).events!.find(
      (e) => e.activityTaskScheduledEventAttributes?.activityId === 'research#1',
    )!.activityTaskScheduledEventAttributes!;
    expect(scheduled.taskQueue?.name).toBe(pyQueue);
    expect(Number(scheduled.heartbeatTimeout?.seconds)).toBe(ROOMY_LEASE.ttlMs / 1000);
    expect(scheduled.retryPolicy?.maximumAttempts).toBe(1);

    // The run's report lists the Python attempt among the others.
    const report = await loadRunReport(await testClient(), handle.workflowId);
    expect(
      report.tasks.flatMap((t) => t.attempts.map((a) => [a.activityId, a.executor, a.worker, a.outcome, a.usage])),
    ).toEqual([
      ['research#1', 'activity', 'py-research', 'succeeded', expect.objectContaining({ costUsd: 0.0042 })],
      ['publish#1', 'shell', expect.any(String), 'succeeded', null],
    ]);
  });

  it('refuses the activity when a client starts it on its own (no workflow scheduled it), before it runs', async () => {
    const dir = tempDir();
    const pyQueue = uniqueQueue('py-standalone');
    await spawnPythonWorker(pyQueue, 'py-standalone', dir);
    await expectNotScheduled('research_agent', pyQueue);
  });

  it('takes its usage as reported: tokens without costUsd are unpriced usage, which stops a run that has maxUsd', async () => {
    const dir = tempDir();
    const pyQueue = uniqueQueue('py-unpriced');
    await spawnPythonWorker(pyQueue, 'py-unpriced', dir);
    const { run } = await teamrunWith(pyQueue);
    const handle = await run({
      name: 'activity-unpriced',
      lease: ROOMY_LEASE,
      budget: { maxUsd: 1 },
      tasks: [
        { key: 'ask', executor: { kind: 'activity', activityType: 'unpriced_agent', taskQueue: pyQueue } },
        { key: 'after', dependsOn: ['ask'], executor: { kind: 'noop' } },
      ],
    });
    const result = await handle.result();

    expect(result.status).toBe('budget_stopped');
    expect(result.budgetReason).toBe('unpriced-usage');
    expect(result.budget.used).toMatchObject({ tokens: 520, usd: 0 });
    expect(result.tasks.find((t) => t.key === 'after')).toMatchObject({ status: 'skipped' });
  });

  it('an interrupt cancels it: the Python code sees the cancellation and the task goes to adjudication', async () => {
    const dir = tempDir();
    const pyQueue = uniqueQueue('py-cancel');
    await spawnPythonWorker(pyQueue, 'py-cancel', dir);
    const { run } = await teamrunWith(pyQueue);
    const handle = await run({
      name: 'activity-interrupt',
      lease: ROOMY_LEASE,
      tasks: [{ key: 'draft', executor: { kind: 'activity', activityType: 'wait_for_cancel', taskQueue: pyQueue } }],
    });
    await marker(dir, 'draft-1.started');

    const verdict = await handle.executeUpdate(msg.interruptTaskUpdate, {
      args: [{ key: 'draft', fencingToken: 1, requestId: 'take-draft', actor: 'ops', reason: 'a human finishes it' }],
    });
    expect(verdict).toMatchObject({ ok: true });

    expect(await marker(dir, 'draft-1.cancelled', 'the Python activity to see the cancellation')).toEqual({
      fencingToken: 1,
    });
    await waitFor(
      'the run to await adjudication',
      async () => (await handle.query(msg.statusQuery)).state === 'awaiting_adjudication',
    );
    expect(await handle.query(msg.adjudicationsQuery)).toEqual([
      expect.objectContaining({
        key: 'draft',
        code: 'TEAM_TASK_HUMAN_INTERRUPTED',
        requestId: 'take-draft',
        actor: 'ops',
        fencingToken: 1,
        decision: null,
      }),
    ]);
    expect(await taskOf(handle, 'draft')).toMatchObject({ status: 'adjudication', attempts: 1 });
    const attempts = (await historyAttempts(handle)).filter((a) => a.activityId.startsWith('draft#'));
    expect(attempts.map((a) => [a.activityId, a.outcome])).toEqual([['draft#1', 'cancelled']]);

    await handle.executeUpdate(msg.adjudicateUpdate, {
      args: [{ key: 'draft', decision: 'accept', decisionId: 'human-draft', actor: 'ops', result: 'written by hand' }],
    });
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    expect(result.tasks[0]).toMatchObject({ status: 'succeeded', output: 'written by hand' });
  });

  it('an attempt no worker on its queue has picked up waits, leased, and an interrupt settles it at once', async () => {
    const pyQueue = uniqueQueue('py-nobody');
    const { run } = await teamrunWith(pyQueue);
    const handle = await run({
      name: 'activity-nobody',
      lease: ROOMY_LEASE,
      tasks: [{ key: 'orphan', executor: { kind: 'activity', activityType: 'research_agent', taskQueue: pyQueue } }],
    });
    await waitFor('the attempt to be leased', async () => (await handle.query(msg.activeClaimsQuery)).length === 1);
    expect(await taskOf(handle, 'orphan')).toMatchObject({ status: 'leased', fencingToken: 1 });

    await handle.executeUpdate(msg.interruptTaskUpdate, {
      args: [{ key: 'orphan', fencingToken: 1, requestId: 'nobody-home' }],
    });
    await waitFor(
      'the run to await adjudication',
      async () => (await handle.query(msg.statusQuery)).state === 'awaiting_adjudication',
    );
    expect(await taskOf(handle, 'orphan')).toMatchObject({ status: 'adjudication', attempts: 1 });
    expect((await historyAttempts(handle)).map((a) => [a.activityId, a.outcome, a.startedBy])).toEqual([
      ['orphan#1', 'cancelled', null],
    ]);
  });

  it('re-leases the attempt of a killed (kill -9) Python worker to a second Python worker with a greater token', async () => {
    const dir = tempDir();
    const pyQueue = uniqueQueue('py-kill');
    const victim = await spawnPythonWorker(pyQueue, 'py-victim', dir);
    const { run } = await teamrunWith(pyQueue);
    const handle = await run({
      name: 'activity-kill',
      lease: { ttlMs: TTL_MS },
      tasks: [
        { key: 'crunch', executor: { kind: 'activity', activityType: 'hang_first_attempt', taskQueue: pyQueue } },
      ],
    });
    expect(await marker(dir, 'crunch-1.started')).toMatchObject({ pid: victim.child.pid, fencingToken: 1 });
    await spawnPythonWorker(pyQueue, 'py-survivor', dir);
    await heartbeatReached(handle, 'crunch#1');

    victim.child.kill('SIGKILL');
    const result = await handle.result();

    expect(result.status).toBe('succeeded');
    expect(result.tasks[0]).toMatchObject({
      key: 'crunch',
      status: 'succeeded',
      attempts: 2,
      fencingToken: 2,
      output: { attempt: 2, fencingToken: 2, worker: 'py-survivor' },
    });
    const attempts = (await historyAttempts(handle)).filter((a) => a.activityId.startsWith('crunch#'));
    expect(attempts.map((a) => [a.activityId, a.outcome, a.startedBy])).toEqual([
      ['crunch#1', 'timed-out', 'py-victim'],
      ['crunch#2', 'completed', 'py-survivor'],
    ]);
    // The lost lease names the dead worker, from the Python heartbeats' details.
    expect(await eventsOf(handle, 'lease:expired')).toEqual([
      expect.objectContaining({ key: 'crunch', fencingToken: 1, workerIdentity: 'py-victim' }),
    ]);
    expect(await eventsOf(handle, 'lease:changed')).toEqual([
      expect.objectContaining({
        previous: expect.objectContaining({ fencingToken: 1 }),
        next: expect.objectContaining({ fencingToken: 2 }),
      }),
    ]);
  });

  it('hands back the attempt of a Python worker shutting down (SIGTERM): leased again at once, no lease expiry', async () => {
    const dir = tempDir();
    const pyQueue = uniqueQueue('py-term');
    const leaving = await spawnPythonWorker(pyQueue, 'py-leaving', dir);
    const { run } = await teamrunWith(pyQueue);
    const handle = await run({
      name: 'activity-term',
      lease: ROOMY_LEASE,
      tasks: [
        { key: 'crunch', executor: { kind: 'activity', activityType: 'hang_first_attempt', taskQueue: pyQueue } },
      ],
    });
    expect(await marker(dir, 'crunch-1.started')).toMatchObject({ pid: leaving.child.pid });
    await spawnPythonWorker(pyQueue, 'py-staying', dir);

    leaving.child.kill('SIGTERM');
    const code = await leaving.exited;
    // The worker's own output says why, should it die of a signal instead of shutting down.
    const why = `exit signal ${leaving.child.signalCode}; output: ${leaving.output().slice(-2_000)}`;
    expect(leaving.output(), why).toContain('python worker stopped');
    expect(code, why).toBe(0);
    const result = await handle.result();

    expect(result.status).toBe('succeeded');
    expect(result.tasks[0]).toMatchObject({
      attempts: 2,
      fencingToken: 2,
      output: { attempt: 2, fencingToken: 2, worker: 'py-staying' },
    });
    const [released, next] = (await historyAttempts(handle)).filter((a) => a.activityId.startsWith('crunch#'));
    expect(released).toMatchObject({ activityId: 'crunch#1', outcome: 'failed', startedBy: 'py-leaving' });
    expect(released.failure?.type).toBe('TeamWorkerShutdown');
    expect(next).toMatchObject({ activityId: 'crunch#2', outcome: 'completed', startedBy: 'py-staying' });
    expect(await eventsOf(handle, 'lease:released')).toEqual([
      expect.objectContaining({ key: 'crunch', fencingToken: 1, workerIdentity: 'py-leaving' }),
    ]);
    expect(await eventsOf(handle, 'lease:expired')).toEqual([]);
  });

  it("refuses a stale Python attempt's write to the fenced store once a newer attempt has written", async () => {
    const dir = tempDir();
    const db = path.join(dir, 'fenced.db');
    const pyQueue = uniqueQueue('py-fence');
    const stale = await spawnPythonWorker(pyQueue, 'py-stale', dir);
    const { run } = await teamrunWith(pyQueue);
    const handle = await run({
      name: 'activity-fence',
      lease: { ttlMs: TTL_MS },
      // Room for more lost leases than one, should the frozen worker still hold an open poll.
      retry: { maxAttempts: 5, backoffMs: 200 },
      tasks: [
        {
          key: 'publish',
          executor: {
            kind: 'activity',
            activityType: 'fenced_publish',
            taskQueue: pyQueue,
            input: { db, resource: 'site', teamrun: [process.execPath, path.join(root, 'bin/teamrun.js')] },
          },
        },
      ],
    });
    expect(await marker(dir, 'publish-1.started')).toMatchObject({ pid: stale.child.pid, fencingToken: 1 });
    await heartbeatReached(handle, 'publish#1');

    // Frozen, attempt 1 stops heartbeating; its lease runs out and a later attempt goes to a healthy worker.
    stale.child.kill('SIGSTOP');
    await spawnPythonWorker(pyQueue, 'py-fresh', dir);
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    const { attempts, fencingToken: winner } = result.tasks[0];
    expect(winner).toBeGreaterThanOrEqual(2);
    expect(result.tasks[0].output).toEqual({ wrote: `written by attempt ${attempts}`, fencingToken: winner });
    expect(await marker(dir, `publish-${attempts}.write`)).toMatchObject({ exitCode: 0 });
    const completed = (await historyAttempts(handle)).filter((a) => a.outcome === 'completed');
    expect(completed.map((a) => [a.activityId, a.startedBy])).toEqual([[`publish#${winner}`, 'py-fresh']]);

    // The stale worker wakes up and writes with its old token: the store refuses it.
    writeFileSync(path.join(dir, 'go'), '');
    stale.child.kill('SIGCONT');
    const refused = await marker<{ exitCode: number; stderr: string }>(
      dir,
      'publish-1.write',
      "the stale attempt's write",
    );
    expect(refused.exitCode).toBe(3);
    expect(refused.stderr).toContain('FENCED_WRITE_REJECTED');
    expect(refused.stderr).toContain(`fencing token 1 is older than the highest seen, ${winner}`);
    expect(withFencedStore(db, (store) => store.read('site'))).toMatchObject({
      token: winner,
      value: `written by attempt ${attempts}`,
      writer: `${handle.workflowId}/publish/${winner}`,
    });
  });
});
