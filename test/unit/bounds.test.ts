import { describe, expect, it } from 'vitest';
import { jsonBytes } from '../../src/plan/bytes';
import { PLAN_LIMITS, TEMPORAL_PAYLOAD_LIMIT_BYTES, type TeamPlanInput } from '../../src/plan/schema';
import { formatProblems, validatePlan } from '../../src/plan/validate';
import { RUN_LIMITS } from '../../src/team/bounds';
import { MESSAGE_LIMITS, TeamControlError } from '../../src/plan/requests/control';
import { MAILBOX_LIMITS } from '../../src/team/mailbox';
import { TeamRun } from '../../src/team/run';
import { packPlan } from '../../src/plan/packed';
import { packSnapshot, unpackSnapshot } from '../../src/team/snapshot';
import type { Claim } from '../../src/team/types';
import { allTasks } from '../helpers/team-run';

const T0 = 1_700_000_000_000;
type TaskInput = TeamPlanInput['tasks'][number];

function runOf(tasks: TaskInput[], extra: Partial<TeamPlanInput> = {}) {
  const validation = validatePlan({ name: 'bounds', ...extra, tasks });
  if (!validation.ok) throw new Error(formatProblems(validation.problems));
  return TeamRun.start(validation.plan, 'wf-bounds', T0);
}
const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return (err as TeamControlError).code;
  }
  return 'no error';
};
/** An object of about `bytes` bytes of JSON. */
const blob = (bytes: number, tag = 'x') => ({ data: tag.repeat(bytes - 20) });
const noop = (key: string, dependsOn: string[] = []): TaskInput => ({ key, dependsOn, executor: { kind: 'noop' } });

/** Interrupts the running attempt of `key`, which settles into adjudication. */
function toAdjudication(run: TeamRun, claim: Claim, at: number, fields: Record<string, string> = {}) {
  run.interrupt({ key: claim.key, fencingToken: claim.fencingToken, ...fields }, at);
  run.settle(claim.key, claim.fencingToken, { kind: 'cancelled', workerIdentity: 'w' }, at + 1);
}

describe('an adjudication result has a bound, and is held once', () => {
  it('refuses a result over 64 KiB in the update validator, as value_too_large naming the field', () => {
    const run = runOf([noop('a')]);
    const [a] = run.claim(T0);
    toAdjudication(run, a, T0 + 1);
    const request = { key: 'a', decision: 'accept', decisionId: 'd1', result: blob(MESSAGE_LIMITS.resultBytes + 100) };
    expect(codeOf(() => run.validateAdjudicate(request))).toBe('value_too_large');
    expect(() => run.validateAdjudicate(request)).toThrow(/result: \d+ bytes of JSON, over the 65536-byte bound/);
    expect(run.tasksPage()[0].status).toBe('adjudication');
    expect(codeOf(() => run.validateAdjudicate({ ...request, result: blob(60_000) }))).toBe('no error');
  });

  it('keeps an accepted result once: the decision cache holds no copy, and a repeated decision still answers with it', () => {
    const run = runOf([noop('a'), noop('b', ['a'])]);
    const [a] = run.claim(T0);
    toAdjudication(run, a, T0 + 1);
    const result = blob(60_000);
    const first = run.adjudicate({ key: 'a', decision: 'accept', decisionId: 'd1', result }, T0 + 3);
    expect(first.task.output).toEqual(result);
    const snapshot = JSON.stringify(packSnapshot(run.snapshot()));
    expect(snapshot.split('x'.repeat(1000)).length - 1).toBe(Math.floor(result.data.length / 1000)); // one copy, not two
    const again = new TeamRun(unpackSnapshot(JSON.parse(snapshot))).adjudicate(
      { key: 'a', decision: 'accept', decisionId: 'd1' },
      T0 + 4,
    );
    expect(again).toMatchObject({
      ok: true,
      idempotent: true,
      task: { key: 'a', status: 'succeeded', output: result },
    });
    // And the dependent gets it.
    expect(run.claim(T0 + 5)[0].dependencyOutputs).toEqual({ a: result });
  });

  it('refuses an accept once the run holds its bound of outputs (two 1.5 MB results wedged the run before)', () => {
    const tasks = Array.from({ length: 9 }, (_, i) => noop(`t${i}`));
    const run = runOf(
      [
        ...tasks,
        noop(
          'sink',
          tasks.map((t) => t.key),
        ),
      ],
      { teammates: 9 },
    );
    const claims = run.claim(T0);
    claims.forEach((c, i) => toAdjudication(run, c, T0 + 10 * i));
    const accepted = claims.map((c, i) =>
      codeOf(() =>
        run.adjudicate(
          { key: c.key, decision: 'accept', decisionId: `d${i}`, result: blob(60_000, String(i)) },
          T0 + 200 + i,
        ),
      ),
    );
    expect(accepted.filter((c) => c === 'no error')).toHaveLength(Math.floor(RUN_LIMITS.outputsHeldBytes / 60_000));
    expect(accepted.filter((c) => c === 'value_too_large').length).toBeGreaterThan(0);
  });

  it('fails a task cleanly whose own output would pass the run-wide bound', () => {
    const run = runOf(
      Array.from({ length: 10 }, (_, i) => noop(`t${i}`)),
      { teammates: 10 },
    );
    for (const c of run.claim(T0))
      run.settle(c.key, c.fencingToken, { kind: 'completed', output: blob(60_000) }, T0 + 1);
    const statuses = run.tasksPage().map((t) => t.status);
    const fit = Math.floor(RUN_LIMITS.outputsHeldBytes / jsonBytes(blob(60_000)));
    expect(statuses.filter((s) => s === 'succeeded')).toHaveLength(fit);
    expect(statuses.filter((s) => s === 'failed')).toHaveLength(10 - fit);
    expect(run.tasksPage().find((t) => t.status === 'failed')!.lastError).toMatch(
      /does not fit: the run holds \d+ bytes .* at most \d+/,
    );
  });
});

describe('every lookup by a user-supplied name is an own-property lookup', () => {
  it('a task keyed __proto__ hands its output to its dependents', () => {
    const run = runOf([noop('__proto__'), noop('constructor', ['__proto__'])]);
    const [p] = run.claim(T0);
    run.settle('__proto__', p.fencingToken, { kind: 'completed', output: { secret: 42 } }, T0 + 1);
    const [c] = run.claim(T0 + 2);
    expect(Object.hasOwn(c.dependencyOutputs, '__proto__')).toBe(true);
    expect(JSON.parse(JSON.stringify(c.dependencyOutputs))).toEqual(JSON.parse('{"__proto__":{"secret":42}}'));
    expect(Object.getPrototypeOf(c.dependencyOutputs)).toBe(Object.prototype);
  });

  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])(
    'decision id %j is a fresh decision, then an idempotent one',
    (decisionId) => {
      const run = runOf([noop('a')]);
      const [a] = run.claim(T0);
      toAdjudication(run, a, T0 + 1);
      expect(run.adjudicate({ key: 'a', decision: 'reject', decisionId }, T0 + 3)).not.toHaveProperty('idempotent');
      const restored = new TeamRun(unpackSnapshot(JSON.parse(JSON.stringify(packSnapshot(run.snapshot())))));
      expect(restored.adjudicate({ key: 'a', decision: 'reject', decisionId }, T0 + 4)).toMatchObject({
        idempotent: true,
        task: { status: 'failed' },
      });
    },
  );
});

describe('text from outside is clipped where the run keeps it', () => {
  it('a long error is clipped in lastError and in events', () => {
    const run = runOf([noop('a')], { retry: { maxAttempts: 1 } });
    const [a] = run.claim(T0);
    run.settle('a', a.fencingToken, { kind: 'failed', message: 'e'.repeat(100_000), nonRetryable: true }, T0 + 1);
    expect(run.tasksPage()[0].lastError!.length).toBeLessThan(RUN_LIMITS.errorChars + 40);
    const failed = run.eventsView({ limit: 100 }).events.find((e) => e.type === 'task:failed')!;
    expect(String(failed.error).length).toBeLessThan(RUN_LIMITS.eventTextChars + 40);
  });
});

describe('the worst case: a run at every bound at once still continues as new', () => {
  it(`packs well under Temporal's ${TEMPORAL_PAYLOAD_LIMIT_BYTES}-byte payload limit`, () => {
    const long = (n: number, c: string) => c.repeat(n);
    const id = (i: number, c: string) => `${i}-`.padEnd(MESSAGE_LIMITS.idChars, c);
    // A plan at its packed bound: distinct long commands (nothing to share), long titles.
    const tasks: TaskInput[] = [];
    const fill = (i: number): TaskInput => ({
      key: `task-${i}`.padEnd(128, 'k'),
      title: long(PLAN_LIMITS.maxTitle, 't'),
      scope: [`area/${i}`],
      executor: { kind: 'shell', command: `echo ${i} ${long(600, 'c')}` },
    });
    const governance = { operators: Array.from({ length: 8 }, (_, i) => id(i, 'o')) };
    while (jsonBytes(packPlan({ ...validPlan(tasks), governance } as never)) < PLAN_LIMITS.maxPackedPlanBytes - 2_000)
      tasks.push(fill(tasks.length));
    const run = runOf(tasks, { teammates: 16, governance, retry: { maxAttempts: 1000, backoffMs: 0 } });
    const actor = governance.operators[0];
    let now = T0;
    // Outputs at their bound, each at the per-output bound.
    const first = run.claim(now);
    for (const c of first.slice(0, 8))
      run.settle(c.key, c.fencingToken, { kind: 'completed', output: blob(64 * 1024 - 100) }, (now += 1));
    // Then human decisions at every message bound, over and over: interrupt (max reason, ids,
    // digest, evidence offered), retry, until the event ring is full of maximal events.
    for (let round = 0; round < 300; round++) {
      for (const c of run.claim(now)) {
        const fields = {
          actor,
          requestId: id(round, 'r'),
          reason: long(MESSAGE_LIMITS.reasonChars, 'y'),
          evidenceDigest: long(MESSAGE_LIMITS.evidenceDigestChars, 'd'),
        };
        run.interrupt({ key: c.key, fencingToken: c.fencingToken, ...fields }, (now += 1));
        run.settle(
          c.key,
          c.fencingToken,
          { kind: 'cancelled', output: blob(64 * 1024 - 100), workerIdentity: 'w' },
          (now += 1),
        );
        run.adjudicate(
          {
            key: c.key,
            decision: 'retry',
            decisionId: id(round * 100 + Number(c.fencingToken), c.key[5]),
            actor,
            reason: long(MESSAGE_LIMITS.reasonChars, 'z'),
            evidenceDigest: fields.evidenceDigest,
          },
          (now += 1),
        );
        run.abort({ actor, requestId: id(round, 'a'), reason: long(10_000, 'q') }, now); // refused: reason too long, still an event
      }
    }
    // The mailbox at its bound: messages nobody has read yet (compaction cannot free them), each body at its bound.
    const mail = () =>
      run.sendMessage(
        {
          from: 'coordinator',
          actor,
          to: '*',
          subject: long(MAILBOX_LIMITS.subjectChars, 's'),
          body: long(MAILBOX_LIMITS.bodyBytes - 2, 'm'),
        },
        (now += 1),
      );
    expect(() => {
      for (;;) mail();
    }).toThrow(TeamControlError);
    expect(run.messagesView().messages.length).toBeGreaterThan(0);
    const snapshot = packSnapshot(run.snapshot());
    const packed = jsonBytes(snapshot);
    const parts = Object.entries(snapshot)
      .map(([part, value]) => `${part} ${jsonBytes(value)}`)
      .join(', ');
    // eslint-disable-next-line no-console
    console.log(
      `worst-case snapshot: ${packed} bytes (${parts}; ${run.adjudicationsView().length} adjudications, plan ${tasks.length} tasks)`,
    );
    expect(packed).toBeLessThan(TEMPORAL_PAYLOAD_LIMIT_BYTES * 0.8);
    // And what continues is the same run.
    const continued = new TeamRun(unpackSnapshot(JSON.parse(JSON.stringify(packSnapshot(run.snapshot())))));
    expect(allTasks(continued)).toEqual(allTasks(run));
  });
});

function validPlan(tasks: TaskInput[]) {
  const validation = validatePlan({ name: 'bounds', tasks: tasks.length ? tasks : [noop('x')] });
  if (!validation.ok) throw new Error(formatProblems(validation.problems));
  return validation.plan;
}
