import { describe, expect, it } from 'vitest';
import type { TeamPlanInput } from '../../src/plan/schema';
import { formatProblems, validatePlan } from '../../src/plan/validate';
import { jsonBytes } from '../../src/plan/bytes';
import { MAILBOX_LIMITS, Mailbox, emptyMailbox } from '../../src/team/mailbox';
import { Members, emptyMembers } from '../../src/team/members';
import { TeamRun } from '../../src/team/run';
import { packSnapshot, unpackSnapshot } from '../../src/team/snapshot';
import type { AttemptOutcome, Claim } from '../../src/team/types';
import { wakesAt } from '../helpers/team-run';

type TaskInput = TeamPlanInput['tasks'][number];
const task = (key: string, extra: Partial<TaskInput> = {}): TaskInput => ({
  key,
  executor: { kind: 'noop' },
  ...extra,
});

function runOf(tasks: TaskInput[], extra: Partial<TeamPlanInput> = {}): TeamRun {
  const validation = validatePlan({ name: 'unit', teammates: 8, ...extra, tasks });
  if (!validation.ok) throw new Error(formatProblems(validation.problems));
  return TeamRun.start(validation.plan, 'wf-unit', 0);
}

const ok = (output?: unknown, messages?: unknown[]): AttemptOutcome => ({ kind: 'completed', output, messages });
const eventsOf = (run: TeamRun, type: string) =>
  run.eventsView({ limit: 10_000 }).events.filter((e) => e.type === type);
const claimOf = (claims: Claim[], key: string) => claims.find((c) => c.key === key)!;
const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return (err as { code?: string }).code;
  }
  return 'no error';
};
/** Continue-as-new, as the workflow does it: packed, through JSON, unpacked. */
const continued = (run: TeamRun) =>
  new TeamRun(unpackSnapshot(JSON.parse(JSON.stringify(packSnapshot(run.snapshot())))));

describe('mailbox: cursors and delivery', () => {
  it('given a writer and a reviewer running, a message reaches the writer once and a peek leaves it unread', () => {
    const run = runOf([task('writer'), task('reviewer')]);
    const claims = run.claim(0);
    const writer = claimOf(claims, 'writer');
    const reviewer = claimOf(claims, 'reviewer');
    const sent = run.sendMessage(
      { from: 'reviewer', fencingToken: reviewer.fencingToken, to: 'writer', body: { fix: 'typo in line 3' } },
      1,
    );
    expect(sent).toEqual({ ok: true, id: 1 });

    const peeked = run.readInbox({ key: 'writer', fencingToken: writer.fencingToken, peek: true }, 2);
    expect(peeked.messages.map((m) => m.body)).toEqual([{ fix: 'typo in line 3' }]);
    const read = run.readInbox({ key: 'writer', fencingToken: writer.fencingToken }, 3);
    expect(read.messages).toEqual([
      { id: 1, from: 'reviewer', to: 'writer', subject: null, body: { fix: 'typo in line 3' }, at: 1 },
    ]);
    expect(run.readInbox({ key: 'writer', fencingToken: writer.fencingToken }, 4).messages).toEqual([]);
    // The reviewer never gets its own direct message to the writer.
    expect(run.readInbox({ key: 'reviewer', fencingToken: reviewer.fencingToken }, 5).messages).toEqual([]);
    expect(eventsOf(run, 'mailbox:sent')).toHaveLength(1);
    expect(eventsOf(run, 'mailbox:delivered')).toEqual([expect.objectContaining({ to: 'writer', ids: [1] })]);
  });

  it('a broadcast reaches every other task once, including one not started yet (in its first attempt input), never the sender', () => {
    const run = runOf([task('a'), task('b'), task('c', { dependsOn: ['a'] })]);
    const claims = run.claim(0);
    run.sendMessage(
      { from: 'a', fencingToken: claimOf(claims, 'a').fencingToken, to: '*', subject: 'hello', body: 'all' },
      1,
    );
    expect(run.readInbox({ key: 'a', fencingToken: claimOf(claims, 'a').fencingToken }, 2).messages).toEqual([]);
    expect(
      run.readInbox({ key: 'b', fencingToken: claimOf(claims, 'b').fencingToken }, 2).messages.map((m) => m.id),
    ).toEqual([1]);
    expect(run.readInbox({ key: 'b', fencingToken: claimOf(claims, 'b').fencingToken }, 3).messages).toEqual([]);
    run.settle('a', claimOf(claims, 'a').fencingToken, ok(), 4);
    const [c] = run.claim(5);
    expect(c.key).toBe('c');
    expect(c.inbox?.map((m) => [m.id, m.subject])).toEqual([[1, 'hello']]);
    expect(run.readInbox({ key: 'c', fencingToken: c.fencingToken }, 6).messages).toEqual([]);
  });

  it('a message to a teammate slot goes to whichever task runs on it, once', () => {
    const run = runOf([task('a'), task('b', { dependsOn: ['a'] })], { teammates: 1 });
    const [a] = run.claim(0);
    run.sendMessage({ from: 'coordinator', to: a.holder, body: 'for the slot' }, 1);
    expect(run.readInbox({ key: 'a', fencingToken: a.fencingToken }, 2).messages.map((m) => m.body)).toEqual([
      'for the slot',
    ]);
    run.settle('a', a.fencingToken, ok(), 3);
    const [b] = run.claim(4);
    expect(b.holder).toBe(a.holder);
    expect(b.inbox).toBeUndefined();
  });

  it('a stale attempt can neither send nor read; a task key sending without a token is stale too', () => {
    const run = runOf([task('a', { retry: { maxAttempts: 3, backoffMs: 0 } }), task('b')]);
    const first = claimOf(run.claim(0), 'a');
    run.settle('a', first.fencingToken, { kind: 'failed', message: 'boom', nonRetryable: false }, 1);
    const second = claimOf(run.claim(2), 'a');
    expect(second.fencingToken).toBeGreaterThan(first.fencingToken);
    expect(codeOf(() => run.sendMessage({ from: 'a', fencingToken: first.fencingToken, to: 'b', body: 1 }, 3))).toBe(
      'stale_attempt',
    );
    expect(codeOf(() => run.readInbox({ key: 'a', fencingToken: first.fencingToken }, 3))).toBe('stale_attempt');
    expect(codeOf(() => run.sendMessage({ from: 'a', to: 'b', body: 1 }, 3))).toBe('stale_attempt');
    expect(run.sendMessage({ from: 'a', fencingToken: second.fencingToken, to: 'b', body: 1 }, 3).ok).toBe(true);
  });

  it('refuses what is malformed or too large with its code, and humans outside governance', () => {
    const run = runOf([task('a')], { governance: { operators: ['alice'] } });
    const [a] = run.claim(0);
    const send = (request: Record<string, unknown>) =>
      codeOf(() => run.sendMessage({ fencingToken: a.fencingToken, from: 'a', ...request }, 1));
    expect(send({ to: 'nobody', body: 1 })).toBe('TEAM_MAILBOX_MESSAGE_INVALID');
    expect(send({ to: 'teammate-9', body: 1 })).toBe('TEAM_MAILBOX_MESSAGE_INVALID');
    expect(send({ to: 'a', body: 1 })).toBe('TEAM_MAILBOX_MESSAGE_INVALID');
    expect(send({ to: 'coordinator' })).toBe('TEAM_MAILBOX_MESSAGE_INVALID');
    expect(send({ to: 'coordinator', body: 'x'.repeat(MAILBOX_LIMITS.bodyBytes) })).toBe(
      'TEAM_MAILBOX_MESSAGE_TOO_LARGE',
    );
    expect(send({ to: 'coordinator', subject: 's'.repeat(MAILBOX_LIMITS.subjectChars + 1), body: 1 })).toBe(
      'TEAM_MAILBOX_MESSAGE_TOO_LARGE',
    );
    expect(send({ to: 42, body: 1 })).toBe('TEAM_MAILBOX_MESSAGE_INVALID');
    expect(codeOf(() => run.sendMessage({ from: 'coordinator', actor: 'mallory', to: 'a', body: 1 }, 1))).toBe(
      'forbidden',
    );
    expect(run.sendMessage({ from: 'coordinator', actor: 'alice', to: 'a', body: 1 }, 1).ok).toBe(true);
    expect(run.sendMessage({ from: 'alice', to: 'a', body: 2 }, 1).ok).toBe(true);
  });
});

describe('mailbox: bounds, compaction and pressure', () => {
  it('past 80 % it is high, past 95 % critical; full refuses with TEAM_MAILBOX_CAPACITY_EXCEEDED; reading frees room by compaction', () => {
    const run = runOf([task('a'), task('b')]);
    const claims = run.claim(0);
    const b = claimOf(claims, 'b');
    const send = (n: number) => run.sendMessage({ from: 'coordinator', to: 'b', body: n }, n);
    for (let n = 1; n <= MAILBOX_LIMITS.messages; n++) send(n);
    expect(eventsOf(run, 'mailbox:pressure').map((e) => e.level)).toEqual(['high', 'critical', 'full']);
    expect(codeOf(() => send(1000))).toBe('TEAM_MAILBOX_CAPACITY_EXCEEDED');
    expect(eventsOf(run, 'mailbox:backpressure')).toHaveLength(1);

    // b reads one batch: those messages are delivered, and the next send compacts them away.
    expect(run.readInbox({ key: 'b', fencingToken: b.fencingToken }, 2000).messages).toHaveLength(
      MAILBOX_LIMITS.readBatch,
    );
    expect(send(1001)).toEqual({ ok: true, id: MAILBOX_LIMITS.messages + 1 });
    expect(eventsOf(run, 'mailbox:compacted')).toEqual([
      expect.objectContaining({ dropped: MAILBOX_LIMITS.readBatch }),
    ]);
    const held = run.messagesView({ limit: 1000 }).messages;
    expect(held).toHaveLength(MAILBOX_LIMITS.messages - MAILBOX_LIMITS.readBatch + 1);
    expect(held[0].id).toBe(MAILBOX_LIMITS.readBatch + 1);
    expect(eventsOf(run, 'mailbox:pressure').at(-1)?.level).toBe('normal');
  });

  it("the update's validator refuses a full mailbox without changing it; a send it lets through still fits", () => {
    const run = runOf([task('a'), task('b')]);
    const b = claimOf(run.claim(0), 'b');
    for (let n = 1; n <= MAILBOX_LIMITS.messages; n++) run.sendMessage({ from: 'coordinator', to: 'b', body: n }, n);
    const before = run.eventsView({ limit: 10_000 });
    const request = { from: 'coordinator', to: 'b', body: 'more' };
    expect(codeOf(() => run.validateSendMessage(request))).toBe('TEAM_MAILBOX_CAPACITY_EXCEEDED');
    expect(run.eventsView({ limit: 10_000 })).toEqual(before);

    // Once b has read a batch, those messages can be compacted: the validator counts them as room.
    run.readInbox({ key: 'b', fencingToken: b.fencingToken }, 200);
    expect(run.validateSendMessage(request)).toMatchObject({ to: 'b' });
    expect(run.sendMessage(request, 201)).toEqual({ ok: true, id: MAILBOX_LIMITS.messages + 1 });
  });

  it('refusals of one pressure episode are recorded at the 1st, 2nd, 4th, 8th...; an accepted send ends the episode', () => {
    const run = runOf([task('a'), task('b')]);
    const b = claimOf(run.claim(0), 'b');
    for (let n = 1; n <= MAILBOX_LIMITS.messages; n++) run.sendMessage({ from: 'coordinator', to: 'b', body: n }, n);
    // What the handler still does for a send its validator let through (older histories, ::teamrun-message:: lines).
    for (let n = 0; n < 40; n++) codeOf(() => run.sendMessage({ from: 'coordinator', to: 'b', body: 'x' }, 300 + n));
    expect(eventsOf(run, 'mailbox:backpressure').map((e) => e.refused)).toEqual([1, 2, 4, 8, 16, 32]);
    // The count survives continue-as-new.
    const next = continued(run);
    codeOf(() => next.sendMessage({ from: 'coordinator', to: 'b', body: 'x' }, 400));
    expect(eventsOf(next, 'mailbox:backpressure').length).toBe(6);

    next.readInbox({ key: 'b', fencingToken: b.fencingToken }, 500);
    expect(next.sendMessage({ from: 'coordinator', to: 'b', body: 'room' }, 501).ok).toBe(true);
    for (let n = 1; n < MAILBOX_LIMITS.readBatch; n++) next.sendMessage({ from: 'coordinator', to: 'b', body: n }, 502);
    expect(codeOf(() => next.sendMessage({ from: 'coordinator', to: 'b', body: 'x' }, 600))).toBe(
      'TEAM_MAILBOX_CAPACITY_EXCEEDED',
    );
    expect(eventsOf(next, 'mailbox:backpressure').map((e) => e.refused)).toEqual([1, 2, 4, 8, 16, 32, 1]);
  });

  it('a message to a finished task is refused with its state; a broadcast still reaches the tasks not settled', () => {
    const run = runOf([task('done'), task('gone'), task('next', { dependsOn: ['gone'] }), task('open')]);
    const claims = run.claim(0);
    run.settle('done', claimOf(claims, 'done').fencingToken, ok({ answer: 42 }), 1);
    run.settle('gone', claimOf(claims, 'gone').fencingToken, { kind: 'failed', message: 'x', nonRetryable: true }, 1);
    const refusal = (to: string) => {
      try {
        run.validateSendMessage({ from: 'coordinator', to, body: 'hi' });
      } catch (err) {
        return err as { code: string; message: string };
      }
      return null;
    };
    // The sender is told what became of the task, so a model can act on it: its output, or why it failed.
    expect(refusal('done')).toMatchObject({
      code: 'TEAM_MAILBOX_MESSAGE_INVALID',
      message:
        'sendMessage: to: task "done" has finished (succeeded) and reads no more messages; nothing was sent. ' +
        'Its output: {"answer":42}',
    });
    expect(refusal('gone')?.message).toContain(
      'has finished (failed) and reads no more messages; nothing was sent. Why: x',
    );
    expect(refusal('next')?.message).toContain('has finished (skipped)');
    expect(refusal('open')).toBeNull();
    expect(refusal('*')).toBeNull();
  });

  it('a broadcast stays held until every task that may still read has had it', () => {
    const run = runOf([task('a'), task('b'), task('later', { dependsOn: ['a', 'b'] })]);
    const claims = run.claim(0);
    const a = claimOf(claims, 'a');
    run.sendMessage({ from: 'a', fencingToken: a.fencingToken, to: '*', body: 'hi' }, 1);
    for (let n = 2; n <= MAILBOX_LIMITS.messages; n++)
      run.sendMessage({ from: 'alice', to: 'coordinator', body: n }, n);
    // Messages to the coordinator count as delivered at once: the send compacts them, not the broadcast.
    expect(run.sendMessage({ from: 'coordinator', to: 'b', body: 'next' }, 200).ok).toBe(true);
    expect(run.messagesView().messages.map((m) => m.id)).toEqual([1, MAILBOX_LIMITS.messages + 1]);
  });

  it('bytes are bounded as well as count', () => {
    const run = runOf([task('a')]);
    run.claim(0);
    const body = 'x'.repeat(MAILBOX_LIMITS.bodyBytes - 100);
    let refused: string | undefined = 'no error';
    for (let n = 0; n < 20 && refused === 'no error'; n++)
      refused = codeOf(() => run.sendMessage({ from: 'coordinator', to: 'a', body }, n));
    expect(refused).toBe('TEAM_MAILBOX_CAPACITY_EXCEEDED');
    expect(run.messagesView().messages.length).toBe(
      Math.floor(MAILBOX_LIMITS.totalBytes / (MAILBOX_LIMITS.bodyBytes - 20)),
    );
  });

  it('messages and cursors survive continue-as-new: nothing is delivered twice, nothing lost', () => {
    const run = runOf([task('a'), task('b'), task('c', { dependsOn: ['a'] })]);
    const claims = run.claim(0);
    const b = claimOf(claims, 'b');
    run.sendMessage({ from: 'coordinator', to: '*', body: 'one' }, 1);
    run.sendMessage({ from: 'coordinator', to: 'b', body: 'two' }, 2);
    expect(run.readInbox({ key: 'b', fencingToken: b.fencingToken }, 3).messages.map((m) => m.body)).toEqual([
      'one',
      'two',
    ]);
    run.sendMessage({ from: 'coordinator', to: 'b', body: 'three' }, 4);
    const next = continued(run);
    expect(next.messagesView().messages.map((m) => m.body)).toEqual(['one', 'two', 'three']);
    expect(next.readInbox({ key: 'b', fencingToken: b.fencingToken }, 5).messages.map((m) => m.body)).toEqual([
      'three',
    ]);
    expect(next.sendMessage({ from: 'coordinator', to: 'a', body: 'four' }, 6)).toEqual({ ok: true, id: 4 });
  });

  it('::teamrun-message:: lines are sent when the attempt settles the task, not when it will be retried', () => {
    const run = runOf([task('a', { retry: { maxAttempts: 2, backoffMs: 0 } }), task('b')]);
    const claims = run.claim(0);
    const a = claimOf(claims, 'a');
    run.settle(
      'a',
      a.fencingToken,
      { kind: 'failed', message: 'x', nonRetryable: false, messages: [{ to: 'b', body: 'early' }] },
      1,
    );
    expect(run.messagesView().messages).toEqual([]);
    const again = claimOf(run.claim(2), 'a');
    run.settle(
      'a',
      again.fencingToken,
      ok(null, [
        { to: 'b', subject: 'done', body: { v: 1 } },
        { to: 'ghost', body: 1 },
      ]),
      3,
    );
    expect(run.messagesView().messages).toEqual([
      { id: 1, from: 'a', to: 'b', subject: 'done', body: { v: 1 }, at: 3 },
    ]);
    expect(eventsOf(run, 'control:rejected')).toEqual([
      expect.objectContaining({ message: 'sendMessage', key: 'a', reason: 'TEAM_MAILBOX_MESSAGE_INVALID' }),
    ]);
  });
});

describe('members', () => {
  it('one row per slot: running with its task, then idle with its counts; teammate:idle when a slot returns from running', () => {
    const run = runOf([task('a'), task('b', { retry: { maxAttempts: 1 } })], { teammates: 3 });
    expect(run.membersView().map((m) => m.state)).toEqual(['idle', 'idle', 'idle']);
    const claims = run.claim(10);
    expect(run.membersView().slice(0, 2)).toEqual([
      expect.objectContaining({ holder: 'teammate-1', state: 'running', currentTask: 'a', since: 10 }),
      expect.objectContaining({ holder: 'teammate-2', state: 'running', currentTask: 'b', since: 10 }),
    ]);
    run.settle('a', claimOf(claims, 'a').fencingToken, ok(), 20);
    run.settle(
      'b',
      claimOf(claims, 'b').fencingToken,
      { kind: 'failed', message: 'it broke', nonRetryable: false },
      30,
    );
    expect(run.membersView().slice(0, 2)).toEqual([
      { holder: 'teammate-1', state: 'idle', currentTask: null, completed: 1, failed: 0, lastError: null, since: 20 },
      {
        holder: 'teammate-2',
        state: 'idle',
        currentTask: null,
        completed: 0,
        failed: 1,
        lastError: 'it broke',
        since: 30,
      },
    ]);
    expect(eventsOf(run, 'teammate:idle').map((e) => e.holder)).toEqual(['teammate-1', 'teammate-2']);
    expect(eventsOf(run, 'teammate:state')).toHaveLength(4);
    // No plan hook: nothing to run.
    expect(run.drainIdleHooks()).toEqual([]);
    run.finish(40);
    expect(run.membersView().map((m) => m.state)).toEqual(['shutdown', 'shutdown', 'shutdown']);
    expect(continued(run).membersView()[0]).toEqual(expect.objectContaining({ state: 'shutdown', completed: 1 }));
  });

  it('a plan with hooks.teammateIdle gets one hook per idle transition, with the member record', () => {
    const run = runOf([task('a')], { hooks: { teammateIdle: { executor: { kind: 'shell', command: 'echo idle' } } } });
    const [a] = run.claim(0);
    run.settle('a', a.fencingToken, ok(), 5);
    const hooks = run.drainIdleHooks();
    expect(hooks).toEqual([
      {
        seq: 1,
        executor: { kind: 'shell', command: 'echo idle' },
        member: expect.objectContaining({ holder: 'teammate-1', state: 'idle', completed: 1 }),
      },
    ]);
    expect(run.drainIdleHooks()).toEqual([]);
  });
});

describe('approval tasks', () => {
  const plan = (approval: Record<string, unknown> = {}, extra: Partial<TeamPlanInput> = {}) =>
    runOf(
      [
        task('build'),
        task('approve', { dependsOn: ['build'], executor: { kind: 'approval', prompt: 'ship it?', ...approval } }),
        task('deploy', { dependsOn: ['approve'] }),
      ],
      extra,
    );

  it('goes straight to adjudication when its dependency succeeds: no attempt, no teammate, no reservation', () => {
    const run = plan({}, { teammates: 1, budget: { maxTasks: 5 } });
    const [build] = run.claim(0);
    run.settle('build', build.fencingToken, ok(), 1);
    expect(run.claim(2)).toEqual([]);
    expect(run.adjudicationsView()).toEqual([
      expect.objectContaining({
        key: 'approve',
        code: 'TEAM_TASK_APPROVAL_REQUIRED',
        holder: 'coordinator',
        reason: expect.stringContaining('ship it?'),
      }),
    ]);
    expect(run.status(2)).toEqual(
      expect.objectContaining({
        state: 'awaiting_adjudication',
        executions: 1,
        teammates: { requested: 1, active: 0 },
      }),
    );
    expect(run.budgetView(2).reserved).toEqual({ tokens: 0, usd: 0 });
    expect(run.budgetView(2).used.tasks).toBe(1);

    run.adjudicate({ key: 'approve', decision: 'accept', decisionId: 'd1', result: { by: 'alice' } }, 3);
    const [deploy] = run.claim(4);
    expect(deploy.key).toBe('deploy');
    expect(deploy.dependencyOutputs).toEqual({ approve: { by: 'alice' } });
  });

  it('reject skips the deploy; retry asks again with a new token', () => {
    const run = plan();
    const [build] = run.claim(0);
    run.settle('build', build.fencingToken, ok(), 1);
    run.claim(2);
    run.adjudicate({ key: 'approve', decision: 'retry', decisionId: 'again' }, 3);
    run.claim(4);
    const records = run.adjudicationsView();
    expect(records.map((r) => [r.fencingToken, r.decision?.decision ?? null])).toEqual([
      [1, 'retry'],
      [2, null],
    ]);
    run.adjudicate({ key: 'approve', decision: 'reject', decisionId: 'no', reason: 'not today' }, 5);
    expect(run.tasksPage().map((t) => [t.key, t.status])).toEqual([
      ['build', 'succeeded'],
      ['approve', 'failed'],
      ['deploy', 'skipped'],
    ]);
    expect(run.phase()).toBe('done');
  });

  it('an abort rejects a pending approval at once, so the run closes without waiting for its timer', () => {
    const run = plan({ timeoutMs: 3_600_000 });
    const [build] = run.claim(0);
    run.settle('build', build.fencingToken, ok(), 1);
    run.claim(2);
    expect(run.phase()).not.toBe('done');
    run.abort({ reason: 'release cancelled', actor: 'alice' }, 3);
    expect(run.tasksPage().map((t) => [t.key, t.status])).toEqual([
      ['build', 'succeeded'],
      ['approve', 'failed'],
      ['deploy', 'skipped'],
    ]);
    expect(run.adjudicationsView()[0].decision).toEqual(
      expect.objectContaining({
        decision: 'reject',
        actor: 'alice',
        reason: 'run aborted by alice before a decision: release cancelled',
      }),
    );
    expect(wakesAt(run, 3)).toBeNull();
    expect(run.phase()).toBe('done');
    expect(run.finish(4).status).toBe('aborted');
  });

  it('approvers narrow governance.operators for the task', () => {
    const run = plan({ approvers: ['rm'] }, { governance: { operators: ['rm', 'dev'] } });
    const [build] = run.claim(0);
    run.settle('build', build.fencingToken, ok(), 1);
    run.claim(2);
    expect(codeOf(() => run.adjudicate({ key: 'approve', decision: 'accept', decisionId: 'x', actor: 'dev' }, 3))).toBe(
      'forbidden',
    );
    expect(codeOf(() => run.adjudicate({ key: 'approve', decision: 'accept', decisionId: 'x', actor: 'eve' }, 3))).toBe(
      'forbidden',
    );
    expect(run.adjudicate({ key: 'approve', decision: 'accept', decisionId: 'x', actor: 'rm' }, 3).task.status).toBe(
      'succeeded',
    );
  });

  it('a plan whose approver is not an operator is refused with the path', () => {
    const validation = validatePlan({
      name: 'unit',
      governance: { operators: ['rm'] },
      tasks: [task('approve', { executor: { kind: 'approval', approvers: ['rm', 'intern'] } })],
    });
    expect(validation.ok).toBe(false);
    expect(!validation.ok && validation.problems).toEqual([
      expect.objectContaining({ path: 'tasks[0].executor.approvers[1]', code: 'approver_not_operator' }),
    ]);
  });

  it('timeoutMs decides by onTimeout (reject by default) at its deadline, not before', () => {
    for (const [onTimeout, status] of [
      [undefined, 'failed'],
      ['accept', 'succeeded'],
    ] as const) {
      const run = plan({ timeoutMs: 1_000, ...(onTimeout ? { onTimeout } : {}) });
      const [build] = run.claim(0);
      run.settle('build', build.fencingToken, ok(), 10);
      run.claim(20);
      expect(wakesAt(run, 20)).toBe(1_020);
      run.expireApprovals(1_019);
      expect(run.tasksPage()[1].status).toBe('adjudication');
      run.expireApprovals(1_020);
      expect(run.tasksPage()[1].status).toBe(status);
      expect(run.adjudicationsView()[0].decision).toEqual(
        expect.objectContaining({ decisionId: 'approval-timeout:approve:1', actor: null }),
      );
      expect(wakesAt(run, 1_020)).toBeNull();
    }
  });
});

describe('mailbox and members in the snapshot, at their bounds', () => {
  it('20,000 tasks that all read (each at its own cursor), a full mailbox and 256 members with long errors, all running long-keyed tasks, take under 192 KB', () => {
    const keys = Array.from({ length: 20_000 }, (_, i) => `task-with-a-long-key-${'k'.repeat(90)}-${i}`);
    const index = new Map(keys.map((k, i) => [k, i]));
    const mailbox = new Mailbox(emptyMailbox(), {
      keys,
      indexOf: (k) => index.get(k),
      teammates: 256,
      settled: () => false,
      record: () => {},
    });
    const body = 'b'.repeat(Math.floor(MAILBOX_LIMITS.totalBytes / MAILBOX_LIMITS.messages) - 200);
    for (let n = 0; n < MAILBOX_LIMITS.messages; n++) mailbox.send({ from: 'coordinator', to: '*', body }, n);
    expect(mailbox.held.messages).toBe(MAILBOX_LIMITS.messages);
    // Each task reads a different number of messages, so cursors spread over every position.
    for (let i = 0; i < keys.length; i++) {
      for (let reads = i % 3; reads >= 0; reads--) mailbox.deliver(keys[i], `teammate-${(i % 256) + 1}`, false);
    }
    const members = new Members(emptyMembers(256, 0), true, () => {});
    for (let s = 1; s <= 256; s++) {
      members.started(`teammate-${s}`, keys[s], 1);
      members.ended(`teammate-${s}`, false, 'e'.repeat(5_000), 2);
      // Running again, on a task with a long key, with the last error kept.
      members.started(`teammate-${s}`, keys[keys.length - s], 3);
    }
    const bytes = jsonBytes({ mailbox: mailbox.snapshot(), members: members.snapshot() });
    expect(bytes).toBeLessThan(192 * 1024);
    // And it comes back the same.
    const again = new Mailbox(JSON.parse(JSON.stringify(mailbox.snapshot())), {
      keys,
      indexOf: (k) => index.get(k),
      teammates: 256,
      settled: () => false,
      record: () => {},
    });
    expect(again.snapshot()).toEqual(mailbox.snapshot());
  });
});
