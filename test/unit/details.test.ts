import { describe, expect, it } from 'vitest';
import { validatePlan, formatProblems } from '../../src/plan/validate';
import type { TeamPlanInput } from '../../src/plan/schema';
import { TeamRun } from '../../src/team/run';
import { currentDetails } from '../../src/workflows/details';

function runOf(plan: Omit<TeamPlanInput, 'name'>): TeamRun {
  const validation = validatePlan({ name: 'details', ...plan });
  if (!validation.ok) throw new Error(formatProblems(validation.problems));
  return TeamRun.start(validation.plan, 'wf-details', 0);
}

describe("the Web UI's current details", () => {
  it('give an interrupted task a `teamrun adjudicate` line and an actor that reads as a name', () => {
    const run = runOf({ tasks: [{ key: 'edit', executor: { kind: 'sleep', ms: 60_000 } }] });
    const [claim] = run.claim(0);
    run.interrupt({ key: 'edit', fencingToken: claim.fencingToken, actor: 'alice' }, 1);
    run.settle('edit', claim.fencingToken, { kind: 'cancelled' }, 2);
    const details = currentDetails(run, 2);
    expect(details).toContain('`teamrun adjudicate wf-details edit --retry` (or `--accept`, `--reject`)');
    expect(details).toContain(`"actor": "<an operator's name>"`);
    expect(details).not.toContain('"actor": ""');
  });

  it('name a task waiting for budget, what it needs and who holds the rest', () => {
    const run = runOf({
      teammates: 2,
      budget: { maxUsd: 1 },
      tasks: [
        { key: 'big', estimate: { usd: 0.75 }, executor: { kind: 'noop' } },
        { key: 'next', estimate: { usd: 0.5 }, executor: { kind: 'noop' } },
      ],
    });
    run.claim(0);
    expect(currentDetails(run, 1)).toContain(
      '- `next` waiting for budget: needs $0.5, $0.25 free, $0.75 reserved by big ($0.75)',
    );
  });

  it('say where to see whether a leased attempt started', () => {
    const run = runOf({ tasks: [{ key: 'far', executor: { kind: 'noop' } }] });
    run.claim(0);
    expect(currentDetails(run, 1)).toContain(
      '`teamrun status wf-details` tells scheduled from running, `teamrun doctor wf-details` names queues nobody polls',
    );
  });

  it('print durations and dollars as people read them', () => {
    const run = runOf({
      budget: { maxUsd: 1 },
      tasks: [{ key: 'gate', executor: { kind: 'approval', prompt: 'ship?', timeoutMs: 3_600_000 } }],
    });
    run.claim(0);
    const details = currentDetails(run, 1);
    expect(details).toContain('reject after 1 h without a decision');
    expect(details).not.toContain('3600000 ms');
    expect(details).toContain('$0.00 of $1.00');
  });
});
