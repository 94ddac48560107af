import { describe, expect, it } from 'vitest';
import { HashChain } from '../../src/activities/hash-chain';
import { JournalRefused, JournalState } from '../../src/agent/state';
import { JOURNAL_LIMITS, type JournalOp, type JournalRequest, type JournalSnapshot } from '../../src/agent/types';
import { validatePlan } from '../../src/plan/validate';

const journal = (fencingToken = 1): JournalState =>
  new JournalState({
    runWorkflowId: 'run',
    key: 'a',
    fencingToken,
    entries: [],
    turnOpen: 0,
    pending: [],
  } as JournalSnapshot);
const proof = { queue: 'worker/stop/q', nonce: 'n'.repeat(32) };
/** An attempt as its gateway writes: an open with its chain's anchor (confirmed: the workflow's part), then links. */
const attempt = (fencingToken: number) => {
  const chain = new HashChain(64);
  return {
    open: (): JournalRequest => ({ op: 'open', fencingToken, anchor: chain.anchor, attempt: proof }),
    write: (op: Exclude<JournalOp, { op: 'open' }>): JournalRequest => ({ ...op, fencingToken, link: chain.next() }),
  };
};
const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return err instanceof JournalRefused ? err.code : String(err);
  }
  return undefined;
};

describe("an agent task's journal", () => {
  it('takes steps from the newest attempt only: an older token is stale, a newer one takes over', () => {
    const j = journal(2);
    expect(codeOf(() => j.apply(attempt(1).open()))).toBe('stale_attempt');
    const third = attempt(3);
    j.apply(third.open());
    j.apply(third.write({ op: 'append', entries: [{ kind: 'inbox', content: 'hi' }] }));
    expect(codeOf(() => j.apply(attempt(2).write({ op: 'append', entries: [] })))).toBe('stale_attempt');
    expect(j.apply(attempt(3).open())).toEqual({ op: 'open', entries: [{ kind: 'inbox', content: 'hi' }] });
  });

  it("takes a write only with the next link of the opening attempt's chain, never a used or a made-up one", () => {
    const j = journal(1);
    const real = attempt(1);
    const open = real.open();
    expect(codeOf(() => j.apply({ ...open, attempt: undefined }))).toBe('unproven');
    expect(codeOf(() => j.apply({ ...open, anchor: 'not hex' }))).toBe('unproven');
    j.apply(open);
    const first = real.write({ op: 'append', entries: [{ kind: 'inbox', content: 'real' }] });
    j.apply(first);
    const forged = { kind: 'model' as const, turn: 1, message: { role: 'assistant' as const, content: 'forged' } };
    // A used link (history shows it), a made-up one, none, another chain's, and a token that did not open.
    expect(codeOf(() => j.apply({ op: 'append', fencingToken: 1, entries: [forged], link: first.link }))).toBe(
      'unproven',
    );
    expect(codeOf(() => j.apply({ op: 'append', fencingToken: 1, entries: [forged], link: 'a'.repeat(64) }))).toBe(
      'unproven',
    );
    expect(codeOf(() => j.apply({ op: 'append', fencingToken: 1, entries: [forged] }))).toBe('unproven');
    expect(codeOf(() => j.apply(attempt(1).write({ op: 'append', entries: [forged] })))).toBe('unproven');
    expect(codeOf(() => j.apply(attempt(1000).write({ op: 'finish' })))).toBe('unproven');
    // A write lost on its way: the next one still follows (within CHAIN_LIMITS.window links).
    real.write({ op: 'finish' });
    j.apply(real.write({ op: 'append', entries: [{ kind: 'inbox', content: 'later' }] }));
    expect(j.snapshot.entries.map((e) => (e as { content: string }).content)).toEqual(['real', 'later']);
  });

  it('applies a journal recorded before the proofs as it ran (the token alone)', () => {
    const j = journal(1);
    j.apply({ op: 'append', fencingToken: 2, entries: [] }, true);
    expect(j.snapshot.fencingToken).toBe(2);
    expect(j.steer({ text: 'hi', actor: null, fencingToken: 2 }, true)).toEqual({ turn: 1 });
  });

  it("takes a steer only with the proof of the worker its run handed it to (the run's governance is the door)", () => {
    const j = journal(1);
    expect(codeOf(() => j.steer({ text: 'FORGED', actor: 'alice', fencingToken: 1 }))).toBe('unproven');
    expect(j.snapshot.pending).toEqual([]);
  });

  it('joins a steer to the next model call and says which one', () => {
    const j = journal();
    const real = attempt(1);
    j.apply(real.open());
    expect(j.steer({ text: 'be brief', actor: 'alice', fencingToken: 1, attempt: proof })).toEqual({ turn: 1 });
    expect(j.apply(real.write({ op: 'beginTurn', turn: 1 }))).toEqual({
      op: 'beginTurn',
      steers: [{ text: 'be brief', actor: 'alice' }],
    });
    // While call 1 is in flight, a steer waits for call 2.
    expect(j.steer({ text: 'and kind', actor: null, fencingToken: 1, attempt: proof })).toEqual({ turn: 2 });
    expect(j.snapshot.entries).toEqual([{ kind: 'steer', turn: 1, text: 'be brief', actor: 'alice' }]);
  });

  it("takes a step's owed entries with its beginTurn or finish, before the steers, and says what mail the run told", () => {
    const j = journal();
    const real = attempt(1);
    j.apply(real.open());
    const result = { kind: 'tool-result' as const, turn: 1, id: 'c1', name: 't', ok: true, content: 'r', ms: 1 };
    j.steer({ text: 'now this', actor: null, fencingToken: 1, attempt: proof });
    // No word from the run yet: no mail id.
    expect(j.apply(real.write({ op: 'beginTurn', turn: 2, entries: [result] }))).toEqual({
      op: 'beginTurn',
      steers: [{ text: 'now this', actor: null }],
    });
    expect(j.snapshot.entries).toEqual([result, { kind: 'steer', turn: 2, text: 'now this', actor: null }]);
    // The run's hints: only a greater id is kept; anything but a positive integer is nobody's word.
    j.mailHint(7);
    j.mailHint(3);
    j.mailHint('9' as never);
    j.mailHint(-1);
    expect(j.apply(real.write({ op: 'beginTurn', turn: 3 }))).toEqual({ op: 'beginTurn', steers: [], mail: 7 });
    const answer = { kind: 'model' as const, turn: 3, message: { role: 'assistant' as const, content: 'done' } };
    expect(j.apply(real.write({ op: 'finish', entries: [answer] }))).toEqual({ op: 'finish' });
    expect(j.finished).toBe(true);
    expect(j.snapshot.entries.at(-1)).toEqual(answer);
    // Owed entries are checked as an append's are.
    const other = journal();
    const second = attempt(1);
    other.apply(second.open());
    const bogus = [{ kind: 'bogus' } as never];
    expect(codeOf(() => other.apply(second.write({ op: 'beginTurn', turn: 1, entries: bogus })))).toBe(
      'invalid_request',
    );
    const big = [{ kind: 'inbox' as const, content: 'x'.repeat(JOURNAL_LIMITS.appendBytes) }];
    expect(codeOf(() => other.apply(second.write({ op: 'finish', entries: big })))).toBe('transcript_too_large');
  });

  it('refuses what would grow past its bounds', () => {
    const j = journal();
    const real = attempt(1);
    j.apply(real.open());
    expect(
      codeOf(() =>
        j.steer({ text: 'x'.repeat(JOURNAL_LIMITS.steerBytes + 1), actor: null, fencingToken: 1, attempt: proof }),
      ),
    ).toBe('value_too_large');
    const big = { kind: 'inbox' as const, content: 'x'.repeat(JOURNAL_LIMITS.appendBytes) };
    expect(codeOf(() => j.apply(real.write({ op: 'append', entries: [big] })))).toBe('transcript_too_large');
    expect(codeOf(() => j.apply(real.write({ op: 'append', entries: [{ kind: 'bogus' } as never] })))).toBe(
      'invalid_request',
    );
  });
});

describe('the agent kind in a plan', () => {
  const plan = (executor: Record<string, unknown>) => ({ name: 'p', tasks: [{ key: 'a', executor }] });
  const problems = (executor: Record<string, unknown>) => {
    const result = validatePlan(plan(executor));
    return result.ok ? [] : result.problems.map((p) => `${p.path}: ${p.message}`);
  };

  it('takes a model, a prompt or messages, tool names and bounds', () => {
    expect(
      problems({
        kind: 'agent',
        model: 'm',
        prompt: 'go',
        tools: ['fs__read_file', 'search__*', 'teamrun__*'],
        maxTurns: 200,
      }),
    ).toEqual([]);
  });

  it('refuses a badly named tool, an unknown teamrun tool (with a guess), more than 200 turns, and no prompt', () => {
    expect(problems({ kind: 'agent', model: 'm', prompt: 'go', tools: ['read file'] })[0]).toContain(
      '"<server>__<tool>"',
    );
    expect(problems({ kind: 'agent', model: 'm', prompt: 'go', tools: ['teamrun__set_ouput'] })[0]).toContain(
      'did you mean "teamrun__set_output"',
    );
    expect(problems({ kind: 'agent', model: 'm', prompt: 'go', maxTurns: 201 })[0]).toContain('maxTurns');
    expect(problems({ kind: 'agent', model: 'm' })[0]).toContain('exactly one of "prompt" or "messages"');
  });
});
