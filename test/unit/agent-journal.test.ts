import { describe, expect, it } from 'vitest';
import { JournalRefused, JournalState } from '../../src/agent/state';
import { JOURNAL_LIMITS, type JournalSnapshot } from '../../src/agent/types';
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
    expect(codeOf(() => j.apply({ op: 'open', fencingToken: 1 }))).toBe('stale_attempt');
    j.apply({ op: 'append', fencingToken: 3, entries: [{ kind: 'inbox', content: 'hi' }] });
    expect(codeOf(() => j.apply({ op: 'append', fencingToken: 2, entries: [] }))).toBe('stale_attempt');
    expect(j.apply({ op: 'open', fencingToken: 3 })).toEqual({
      op: 'open',
      entries: [{ kind: 'inbox', content: 'hi' }],
    });
  });

  it('joins a steer to the next model call and says which one', () => {
    const j = journal();
    expect(j.steer({ text: 'be brief', actor: 'alice', fencingToken: 1 })).toEqual({ turn: 1 });
    expect(j.apply({ op: 'beginTurn', fencingToken: 1, turn: 1 })).toEqual({
      op: 'beginTurn',
      steers: [{ text: 'be brief', actor: 'alice' }],
    });
    // While call 1 is in flight, a steer waits for call 2.
    expect(j.steer({ text: 'and kind', actor: null, fencingToken: 1 })).toEqual({ turn: 2 });
    expect(j.snapshot.entries).toEqual([{ kind: 'steer', turn: 1, text: 'be brief', actor: 'alice' }]);
  });

  it('refuses what would grow past its bounds', () => {
    const j = journal();
    expect(
      codeOf(() => j.steer({ text: 'x'.repeat(JOURNAL_LIMITS.steerBytes + 1), actor: null, fencingToken: 1 })),
    ).toBe('value_too_large');
    const big = { kind: 'inbox' as const, content: 'x'.repeat(JOURNAL_LIMITS.appendBytes) };
    expect(codeOf(() => j.apply({ op: 'append', fencingToken: 1, entries: [big] }))).toBe('transcript_too_large');
    expect(codeOf(() => j.apply({ op: 'append', fencingToken: 1, entries: [{ kind: 'bogus' } as never] }))).toBe(
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
