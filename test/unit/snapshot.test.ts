import { describe, expect, it } from 'vitest';
import { CONTINUE_AS_NEW_EVENTS, TeamPlanSchema, type TeamPlanInput } from '../../src/plan/schema';
import { formatProblems, validatePlan } from '../../src/plan/validate';
import { RUN_LIMITS } from '../../src/team/bounds';
import { RESULT_TASKS_MAX_BYTES, boundTaskViews } from '../../src/team/result';
import { TeamRun } from '../../src/team/run';
import { packSnapshot, unpackSnapshot } from '../../src/team/snapshot';
import type { AttemptOutcome, Claim, ReportedUsage } from '../../src/team/types';
import type { TaskView } from '../../src/team/views';
import { allTasks } from '../helpers/team-run';

type TaskInput = TeamPlanInput['tasks'][number];

const T0 = 1_760_000_000_000;
const task = (key: string, extra: Partial<TaskInput> = {}): TaskInput => ({
  key,
  executor: { kind: 'noop' },
  ...extra,
});

function runOf(tasks: TaskInput[], extra: Partial<TeamPlanInput> = {}): TeamRun {
  const validation = validatePlan({ name: 'snap', ...extra, tasks });
  if (!validation.ok) throw new Error(formatProblems(validation.problems));
  return TeamRun.start(validation.plan, 'wf-snap', T0);
}

/** What continue-as-new does to a run: pack, serialize as a payload, unpack in the next run. */
const continued = (run: TeamRun) =>
  new TeamRun(unpackSnapshot(JSON.parse(JSON.stringify(packSnapshot(run.snapshot())))));

const ok = (output?: unknown, usage?: ReportedUsage): AttemptOutcome => ({ kind: 'completed', output, usage });
const byKey = (claims: Claim[], key: string) => claims.find((c) => c.key === key)!;

/** Everything a client can see of a run. */
const views = (run: TeamRun, now: number) => ({
  status: run.status(now),
  phase: run.phase(),
  tasks: allTasks(run),
  claims: run.activeClaims(),
  events: run.eventsView({ limit: 100_000 }),
  budget: run.budgetView(now),
  adjudications: run.adjudicationsView(),
  // What the workflow waits for next, and until when: a retry backoff's end, the adjudication wait's end.
  wait: run.beginWait(now, false),
});

/** A run with a task in every state: succeeded with output and usage, failed, skipped, backing off, leased, in adjudication. */
function busyRun(): TeamRun {
  const run = runOf(
    [
      task('fetch', { title: 'Fetch sources', scope: ['src/'], estimate: { tokens: 100 } }),
      task('build', { dependsOn: ['fetch'], priority: 'high', retry: { maxAttempts: 1 } }),
      task('docs', { dependsOn: ['build'] }),
      task('flaky', { lease: { ttlMs: 2000 }, executor: { kind: 'shell', command: 'exit 1' } }),
      task('review', { onLeaseLost: 'adjudicate', executor: { kind: 'sleep', ms: 10 } }),
      task('long', { executor: { kind: 'sleep', ms: 60_000 } }),
      task('waits', { dependsOn: ['fetch', 'long'] }),
    ],
    // A task limit, not a token one: under a token or dollar limit the lost lease below would stop the run (usage-unknown).
    { teammates: 4, retry: { maxAttempts: 3, backoffMs: 5_000 }, budget: { maxTasks: 1_000 } },
  );
  const first = run.claim(T0);
  run.settle('fetch', byKey(first, 'fetch').fencingToken, ok({ files: 3 }, { inputTokens: 120 }), T0 + 10);
  run.settle(
    'flaky',
    byKey(first, 'flaky').fencingToken,
    { kind: 'failed', message: 'exit 1', nonRetryable: false },
    T0 + 11,
  );
  run.settle('review', byKey(first, 'review').fencingToken, { kind: 'lease-lost', workerIdentity: 'w1' }, T0 + 12);
  const second = run.claim(T0 + 20);
  run.settle(
    'build',
    byKey(second, 'build').fencingToken,
    { kind: 'failed', message: 'compile error', nonRetryable: true },
    T0 + 30,
  );
  return run;
}

describe('snapshot packing (what continue-as-new carries)', () => {
  it('restores a run with a task in every state to the same views', () => {
    const run = busyRun();
    expect(run.tasksPage().map((t) => t.status)).toEqual([
      'succeeded',
      'failed',
      'skipped',
      'ready',
      'adjudication',
      'leased',
      'blocked',
    ]);
    const packed = JSON.parse(JSON.stringify(packSnapshot(run.snapshot())));
    expect(unpackSnapshot(packed)).toEqual(run.snapshot());
    expect(views(continued(run), T0 + 40)).toEqual(views(run, T0 + 40));
  });

  it('goes on after a restore exactly as the original does: same claims, increasing fencing tokens', () => {
    const run = busyRun();
    const restored = continued(run);
    const long = run.activeClaims().find((c) => c.key === 'long')!;
    for (const r of [run, restored]) r.settle('long', long.fencingToken, ok(), T0 + 6_000);
    const claims = restored.claim(T0 + 6_000);
    expect(claims).toEqual(run.claim(T0 + 6_000));
    // flaky's second attempt: a token greater than the first one, issued before the restore.
    expect(byKey(claims, 'flaky').fencingToken).toBe(2);
    expect(views(restored, T0 + 6_001)).toEqual(views(run, T0 + 6_001));
  });

  it('keeps a pending adjudication pending, and its decision id idempotent across restores', () => {
    const run = busyRun();
    const restored = continued(run);
    expect(restored.adjudicationsView()).toEqual([expect.objectContaining({ key: 'review', decision: null })]);
    const decided = restored.adjudicate({ key: 'review', decision: 'accept', decisionId: 'd-1' }, T0 + 50);
    const again = continued(restored).adjudicate({ key: 'review', decision: 'accept', decisionId: 'd-1' }, T0 + 60);
    expect(again).toEqual({ ...decided, idempotent: true });
  });

  it('keeps the wall-clock deadline, counted from when the first run started', () => {
    const run = runOf([task('a')], { budget: { maxWallMs: 60_000 } });
    expect(continued(continued(run)).wallDeadline()).toBe(T0 + 60_000);
  });

  it('keeps the adjudication wait clock: a restore does not give humans more time', () => {
    const run = runOf([task('review', { onLeaseLost: 'adjudicate' })], { adjudicationTimeoutMs: 60_000 });
    const [claim] = run.claim(T0);
    run.settle('review', claim.fencingToken, { kind: 'lease-lost' }, T0 + 1_000);
    expect(run.beginWait(T0 + 2_000, false).closesAt).toBe(T0 + 62_000);
    expect(continued(run).beginWait(T0 + 30_000, false).closesAt).toBe(T0 + 62_000);
  });

  it('fills every defaulted plan field back in, and keeps the ones a plan set', () => {
    const run = busyRun();
    const packed = packSnapshot(run.snapshot());
    const fetch = packed.plan.tasks[0];
    expect(fetch[0]).toBe('fetch');
    expect(fetch[3]).toEqual({
      title: 'Fetch sources',
      scope: ['src'] /* normalised by validation */,
      estimate: { tokens: 100 },
    });
    expect(packed.plan.tasks[6]).toEqual(['waits', 0, [0, 5]]);
    expect(unpackSnapshot(packed).plan).toEqual(TeamPlanSchema.parse(unpackSnapshot(packed).plan));
  });

  it('refuses a snapshot format it does not know, naming it', () => {
    const packed = { ...packSnapshot(busyRun().snapshot()), format: 99 } as unknown as Parameters<
      typeof unpackSnapshot
    >[0];
    expect(() => unpackSnapshot(packed)).toThrow(/snapshot format 99/);
  });

  it('keeps a 10,000-task run mid-way well under the 2 MB payload limit', () => {
    const tasks: TaskInput[] = [];
    for (let i = 0; i < 10_000; i++) {
      tasks.push(
        task(`t${String(i).padStart(5, '0')}`, i < 100 ? {} : { dependsOn: [`t${String(i - 100).padStart(5, '0')}`] }),
      );
    }
    const run = runOf(tasks, { teammates: 64 });
    let now = T0;
    while (run.stats().succeeded < 5_000) {
      for (const claim of run.claim(now)) run.settle(claim.key, claim.fencingToken, ok(), (now += 7));
    }
    const raw = JSON.stringify(run.snapshot()).length;
    const packed = JSON.stringify(packSnapshot(run.snapshot())).length;
    expect(raw).toBeGreaterThan(2_000_000);
    expect(packed).toBeLessThan(1_000_000);
    expect(views(continued(run), now)).toEqual(views(run, now));
    // The event log is a ring: the newest events (at most 2,000, within RUN_LIMITS.eventBytes), numbered on from the first.
    const { events, nextSeq } = run.eventsView({ limit: 100_000 });
    expect(events.length).toBeGreaterThan(500);
    expect(events.length).toBeLessThanOrEqual(2_000);
    expect(JSON.stringify(events).length).toBeLessThanOrEqual(RUN_LIMITS.eventBytes + 2_000);
    expect(events[events.length - 1].seq).toBe(nextSeq);
    expect(nextSeq).toBeGreaterThan(10_000);
  });

  it('keeps a 10,000-task run with 1,000 attempts in flight (the teammate bound) under the 2 MB payload limit', () => {
    const tasks: TaskInput[] = [];
    for (let i = 0; i < 10_000; i++) tasks.push(task(`t${String(i).padStart(5, '0')}`));
    const run = runOf(tasks, { teammates: 1_000 });
    let now = T0;
    while (run.stats().succeeded < 5_000) {
      for (const claim of run.claim(now).slice(0, 500)) run.settle(claim.key, claim.fencingToken, ok(), (now += 7));
    }
    const claims = run.claim(now);
    // Every in-flight attempt announced its worker's stop queue (the longest name allowed).
    run.attemptsRunning({
      queue: 'q'.repeat(300),
      attempts: run
        .activeClaims()
        .slice(0, 1_000)
        .map((c) => ({ key: c.key, fencingToken: c.fencingToken })),
    });
    expect(run.activeClaims().length).toBe(1_000);
    expect(claims.length).toBeGreaterThan(0);
    const packed = JSON.stringify(packSnapshot(run.snapshot())).length;
    expect(packed).toBeLessThan(1_500_000);
    expect(views(continued(run), now)).toEqual(views(run, now));
  });
});

describe('run result size', () => {
  const view = (key: string, status: TaskView['status'], output?: unknown): TaskView => ({
    key,
    title: key,
    status,
    attempts: 1,
    fencingToken: 1,
    dependsOn: [],
    parent: null,
    depth: 0,
    holder: 'teammate-1',
    startedAt: T0,
    settledAt: T0 + 1,
    lastError: status === 'failed' ? 'boom' : null,
    skipReason: null,
    usage: { inputTokens: 0, outputTokens: 0, cacheTokens: 0, costUsd: 0 },
    ...(output === undefined ? {} : { output }),
  });

  it('carries every task view while they fit', () => {
    const views = [view('a', 'succeeded', { n: 1 }), view('b', 'failed')];
    expect(boundTaskViews(views)).toEqual({ tasks: views, omittedTasks: 0 });
  });

  it('past the bound keeps every task that did not succeed, then succeeded ones in plan order', () => {
    const big = 'x'.repeat(400);
    const views = [
      view('s1', 'succeeded', big),
      view('f1', 'failed'),
      view('s2', 'succeeded', big),
      view('a1', 'adjudication'),
      view('s3', 'succeeded', big),
    ];
    const size = (i: number) => JSON.stringify(views[i]).length + 1;
    // Room for both tasks that need a reader, and two of the three succeeded ones.
    const { tasks, omittedTasks } = boundTaskViews(views, size(1) + size(3) + size(0) + size(2));
    expect(tasks.map((t) => t.key)).toEqual(['s1', 'f1', 's2', 'a1']);
    expect(omittedTasks).toBe(1);
  });

  it('keeps the result of a finished 10,000-task run under the 2 MB payload limit', () => {
    const run = runOf(
      Array.from({ length: 10_000 }, (_, i) => task(`task-${i}`)),
      { teammates: 64 },
    );
    let now = T0;
    for (;;) {
      const claims = run.claim(now);
      if (claims.length === 0) break;
      for (const claim of claims) {
        run.settle(
          claim.key,
          claim.fencingToken,
          claim.key === 'task-9999' ? { kind: 'failed', message: 'late', nonRetryable: true } : ok(),
          (now += 1),
        );
      }
    }
    const result = run.finish(now);
    expect(JSON.stringify(result).length).toBeLessThan(RESULT_TASKS_MAX_BYTES + 100_000);
    expect(result.stats).toMatchObject({ total: 10_000, succeeded: 9_999, failed: 1 });
    expect(result.tasks.find((t) => t.key === 'task-9999')?.status).toBe('failed');
    expect(result.tasks.length + result.omittedTasks).toBe(10_000);
    expect(result.tasks[0].key).toBe('task-0');
  });
});

describe('plan field continueAsNewAfterEvents', () => {
  const plan = (continueAsNewAfterEvents?: number) => ({ name: 'p', continueAsNewAfterEvents, tasks: [task('a')] });

  it('defaults to handing over at 8,000 events', () => {
    const validation = validatePlan(plan());
    expect(validation.ok && TeamRun.start(validation.plan, 'wf', T0).continueAsNewAfterEvents).toBe(
      CONTINUE_AS_NEW_EVENTS.default,
    );
  });

  it.each([
    { value: 200, ok: true },
    { value: 10_000, ok: true },
    { value: 199, ok: false },
    { value: 10_001, ok: false },
    { value: 500.5, ok: false },
  ])('accepts $value: $ok', ({ value, ok }) => {
    const validation = validatePlan(plan(value));
    expect(validation.ok).toBe(ok);
    if (!validation.ok) expect(validation.problems[0].path).toBe('continueAsNewAfterEvents');
  });
});
