import { describe, expect, it } from 'vitest';
import { validatePlan, formatProblems } from '../../src/plan/validate';
import type { TeamPlanInput } from '../../src/plan/schema';
import { TeamRun } from '../../src/team/run';
import { currentDetails } from '../../src/workflows/details';
import { runSummary } from '../../src/format';

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
      // Escaped: the Web UI renders markdown with math, where two bare $ make a formula.
      '- `next` waiting for budget: needs \\$0.5, \\$0.25 free, \\$0.75 reserved by big \\(\\$0.75\\)',
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
    expect(details).toContain('\\$0.00 of \\$1.00');
  });

  it('escape dollar signs, which the Web UI would read as math, and print numbers with thousands separators', () => {
    const run = runOf({
      budget: { maxUsd: 1, maxTokens: 2_000_000, maxTasks: 5_000 },
      tasks: [{ key: 'ask', title: 'costs $5 and $6', executor: { kind: 'noop' } }],
    });
    const [claim] = run.claim(0);
    run.interrupt({ key: 'ask', fencingToken: claim.fencingToken, actor: 'al$ice', reason: 'over $5 or $6' }, 1);
    const usage = { inputTokens: 12_000, outputTokens: 345, model: 'm', costUsd: 0.0011 };
    run.settle('ask', claim.fencingToken, { kind: 'cancelled', usage }, 2);
    const details = currentDetails(run, 3);
    // Every dollar sign is escaped: two unescaped ones make the text between them LaTeX (`\\(0.0011 of \\)1.00`).
    expect(details.replace(/\\\$/g, '')).not.toContain('$');
    expect(details).toContain('1 of 5,000 attempts, 12,345 of 2,000,000 tokens, \\$0.0011 of \\$1.00');
    expect(details).toContain('by al\\$ice (over \\$5 or \\$6)');
  });

  it('say an attempt may not have started only while the run has not heard from it', () => {
    const run = runOf({ tasks: [{ key: 'write', executor: { kind: 'agent', model: 'm', prompt: 'go' } }] });
    const [claim] = run.claim(0);
    expect(currentDetails(run, 1)).toContain('- started?');
    // Its worker says which queue reaches it (a long attempt): the run knows it runs.
    run.attemptsRunning({ queue: 'w/stop/q', attempts: [{ key: 'write', fencingToken: claim.fencingToken }] });
    const details = currentDetails(run, 2);
    expect(details).toContain('`write#1` (teammate-1, running)');
    expect(details).not.toContain('started?');
    expect(details).not.toContain('not started');
  });

  it('keep the summary, fixed when the run starts, true once tasks are added: it says what the run started with', () => {
    const plan = { name: 'details', tasks: [{ key: 'plan', allowSpawn: true, executor: { kind: 'noop' as const } }] };
    const run = runOf({ tasks: plan.tasks });
    const [claim] = run.claim(0);
    const added = [
      { key: 'part-1', executor: { kind: 'noop' } },
      { key: 'part-2', executor: { kind: 'noop' } },
    ];
    run.settle('plan', claim.fencingToken, { kind: 'completed', tasks: added }, 1);
    expect(currentDetails(run, 2)).toContain('tasks: 1/3 done');
    // Not "1 tasks": the run has 3 now, and the Web UI's summary cannot change.
    expect(runSummary(plan)).toBe('team run details: started with 1 task, 2 teammates');
  });
});
