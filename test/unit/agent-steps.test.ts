import { describe, expect, it } from 'vitest';
import { HashChain } from '../../src/activities/hash-chain';
import { validatePlan } from '../../src/plan/validate';
import { TeamRun } from '../../src/team/run';
import { packSnapshot, unpackSnapshot } from '../../src/team/snapshot';

const step = (tool: string) => ({ type: 'agent:tool', turn: 1, tool, ms: 1, ok: true });

/** A run whose agent task `write` has a running attempt; its worker's step chain. */
function running() {
  const validation = validatePlan({
    name: 'unit',
    tasks: [{ key: 'write', executor: { kind: 'agent', model: 'm', prompt: 'go' } }],
  });
  if (!validation.ok) throw new Error('plan');
  const run = TeamRun.start(validation.plan, 'wf-unit', 0);
  const [claim] = run.claim(0);
  return { run, fencingToken: claim.fencingToken, chain: new HashChain(64) };
}

const tools = (run: TeamRun) =>
  run
    .eventsView({ limit: 1000 })
    .events.filter((e) => e.type === 'agent:tool')
    .map((e) => e.tool);

describe("an agent attempt's steps in its run's log", () => {
  it('are recorded only once the anchor is confirmed, then only with the next link of its chain', () => {
    const { run, fencingToken, chain } = running();
    const signal = (tool: string, proof: object) => ({ key: 'write', fencingToken, steps: [step(tool)], ...proof });
    const attempt = { queue: 'w/stop/q', nonce: 'n'.repeat(32) };
    const first = signal('real-1', { anchor: chain.anchor, attempt });
    // A token is public: a signal with it alone, or an anchor nobody confirmed, records nothing.
    expect(run.recordAgentSteps(signal('forged', {}), 1, 'link')).toBe(0);
    expect(run.recordAgentSteps(first, 1, 'link')).toBe(0);
    expect(run.recordAgentSteps(first, 1, 'confirmed')).toBe(1);
    // Confirmed once per attempt: a second anchor is not taken.
    expect(run.recordAgentSteps(signal('forged', { anchor: new HashChain(4).anchor, attempt }), 1, 'confirmed')).toBe(
      0,
    );
    const link = chain.next();
    expect(run.recordAgentSteps(signal('real-2', { link }), 2, 'link')).toBe(1);
    // The link just used (history shows it) is spent; a made-up one never follows.
    expect(run.recordAgentSteps(signal('forged', { link }), 3, 'link')).toBe(0);
    expect(run.recordAgentSteps(signal('forged', { link: 'ab'.repeat(32) }), 3, 'link')).toBe(0);
    expect(tools(run)).toEqual(['real-1', 'real-2']);
  });

  it("keeps the chain's head in the attempt's record, so a continued run goes on taking them", () => {
    const { run, fencingToken, chain } = running();
    const attempt = { queue: 'w/stop/q', nonce: 'n'.repeat(32) };
    run.recordAgentSteps(
      { key: 'write', fencingToken, steps: [step('a')], anchor: chain.anchor, attempt },
      1,
      'confirmed',
    );
    const continued = new TeamRun(unpackSnapshot(packSnapshot(run.snapshot())));
    const next = { key: 'write', fencingToken, steps: [step('b')], link: chain.next() };
    expect(continued.recordAgentSteps(next, 2, 'link')).toBe(1);
  });

  it('records a run from before the proofs as it ran', () => {
    const { run, fencingToken } = running();
    expect(run.recordAgentSteps({ key: 'write', fencingToken, steps: [step('old')] }, 1, 'unproven')).toBe(1);
  });
});

describe('a steer of a task the run does not have', () => {
  it('is refused as an unknown task, with the key it likely meant, not as "a undefined task"', () => {
    const { run } = running();
    let refused: { code?: string; message?: string } = {};
    try {
      run.validateSteer({ key: 'wrtie', text: 'be brief' });
    } catch (err) {
      refused = err as { code?: string; message?: string };
    }
    expect(refused.code).toBe('not_found');
    expect(refused.message).toBe('steerTask: unknown task "wrtie" (did you mean "write"?)');
  });
});
