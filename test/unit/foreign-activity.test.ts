import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPlanFile } from '../../src/plan/load';
import { MAX_OUTPUT_BYTES } from '../../src/activities/interface';
import { jsonBytes, MAX_TIMEOUT_MS, PLAN_LIMITS } from '../../src/plan/schema';
import { validatePlan, type PlanProblem } from '../../src/plan/validate';
import {
  boundForeignOutcome,
  foreignActivityInput,
  foreignActivityOptions,
  foreignResultOutcome,
  isResultEnvelope,
} from '../../src/team/foreign-activity';
import type { AttemptOutcome, Claim } from '../../src/team/types';

const research = { kind: 'activity', activityType: 'research_agent', taskQueue: 'py-agents' };
const plan = (executor: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  name: 'p',
  activityQueues: ['py-agents'],
  tasks: [{ key: 'research', executor }],
  ...extra,
});

function problemsOf(input: unknown): PlanProblem[] {
  const result = validatePlan(input);
  if (result.ok) throw new Error('expected the plan to be refused');
  return result.problems;
}

function claim(executor: Record<string, unknown>, extra: Partial<Claim> = {}): Claim {
  return {
    key: 'research',
    title: 'research',
    attempt: 2,
    fencingToken: 5,
    leaseId: 'wf/research/5',
    holder: 'teammate-1',
    activityId: 'research#5',
    ttlMs: 3_000,
    heartbeatEveryMs: 1_500,
    executor: executor as Claim['executor'],
    dependencyOutputs: { fetch: 'pages' },
    estimate: { tokens: 0, usd: 0 },
    grant: { tokens: null, usd: null },
    ...extra,
  };
}

describe('an activity task in a plan', () => {
  it('is accepted on a queue the plan lists, with every field', () => {
    const result = validatePlan(
      plan({ ...research, input: { topic: 'x' }, startToCloseMs: 60_000, heartbeat: 'required' }),
    );
    expect(result.ok).toBe(true);
  });

  it('is refused on a queue the plan does not list, with the path and a did-you-mean', () => {
    expect(problemsOf(plan({ ...research, taskQueue: 'py-agent' }))).toEqual([
      {
        path: 'tasks[0].executor.taskQueue',
        code: 'activity_queue_not_allowed',
        message: 'task queue "py-agent" is not in the plan\'s activityQueues ("py-agents"); did you mean "py-agents"?',
      },
    ]);
    expect(problemsOf({ name: 'p', tasks: [{ key: 'research', executor: research }] })).toEqual([
      expect.objectContaining({
        path: 'tasks[0].executor.taskQueue',
        message: 'task queue "py-agents" is not in the plan\'s activityQueues (none listed)',
      }),
    ]);
  });

  it('is refused under a shared ledger, whose slot a foreign worker cannot renew', () => {
    expect(problemsOf(plan(research, { budget: { ledger: 'team-budget' } }))).toEqual([
      expect.objectContaining({ path: 'tasks[0].executor', code: 'activity_with_ledger' }),
    ]);
  });

  it.each([
    ['activityType empty', { activityType: '' }, 'tasks[0].executor.activityType'],
    [
      'activityType too long',
      { activityType: 'a'.repeat(PLAN_LIMITS.maxActivityName + 1) },
      'tasks[0].executor.activityType',
    ],
    ['taskQueue too long', { taskQueue: 'q'.repeat(PLAN_LIMITS.maxActivityName + 1) }, 'tasks[0].executor.taskQueue'],
    ['startToCloseMs past 2^31-1', { startToCloseMs: MAX_TIMEOUT_MS + 1 }, 'tasks[0].executor.startToCloseMs'],
    ['heartbeat neither required nor optional', { heartbeat: 'sometimes' }, 'tasks[0].executor.heartbeat'],
    ['heartbeat optional without startToCloseMs', { heartbeat: 'optional' }, 'tasks[0].executor.startToCloseMs'],
    ['input over 64 KiB', { input: 'x'.repeat(PLAN_LIMITS.maxActivityInputBytes) }, 'tasks[0].executor.input'],
    ['an unknown field', { retries: 3 }, 'tasks[0].executor.retries'],
  ])('is refused with %s', (_scenario, fields, path) => {
    expect(problemsOf(plan({ ...research, ...fields })).map((p) => p.path)).toContain(path);
  });

  it('is what examples/python-activity.yaml runs', () => {
    const loaded = loadPlanFile(path.join(__dirname, '..', '..', 'examples', 'python-activity.yaml'));
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems));
    expect(loaded.plan.activityQueues).toEqual(['py-agents']);
    expect(loaded.plan.tasks[0].executor).toEqual({ ...research, input: { topic: 'fencing tokens', depth: 2 } });
  });

  it('bounds the plan-level list of queues', () => {
    const queues = Array.from({ length: PLAN_LIMITS.maxActivityQueues + 1 }, (_, i) => `q${i}`);
    expect(problemsOf(plan(research, { activityQueues: queues })).map((p) => p.path)).toEqual(['activityQueues']);
  });
});

describe('scheduling an attempt of an activity task', () => {
  it('hands the activity the documented JSON argument, input null when the plan gives none', () => {
    expect(foreignActivityInput('wf', claim({ ...research, input: { topic: 'x' } }))).toEqual({
      workflowId: 'wf',
      taskKey: 'research',
      attempt: 2,
      fencingToken: 5,
      leaseId: 'wf/research/5',
      holder: 'teammate-1',
      input: { topic: 'x' },
      dependencyOutputs: { fetch: 'pages' },
    });
    expect(foreignActivityInput('wf', claim(research)).input).toBeNull();
  });

  it('makes the lease TTL its heartbeat timeout unless heartbeats are optional, then start-to-close is the only bound', () => {
    expect(foreignActivityOptions(claim(research))).toEqual({
      activityType: 'research_agent',
      taskQueue: 'py-agents',
      heartbeatTimeoutMs: 3_000,
      startToCloseTimeoutMs: 30 * 24 * 3600_000,
    });
    expect(foreignActivityOptions(claim({ ...research, startToCloseMs: 60_000 }))).toMatchObject({
      heartbeatTimeoutMs: 3_000,
      startToCloseTimeoutMs: 60_000,
    });
    const optional = foreignActivityOptions(claim({ ...research, heartbeat: 'optional', startToCloseMs: 60_000 }));
    expect(optional).toEqual({ activityType: 'research_agent', taskQueue: 'py-agents', startToCloseTimeoutMs: 60_000 });
  });
});

describe("an activity's result", () => {
  it('is the output itself unless it is an {output, usage} envelope', () => {
    expect(foreignResultOutcome('text')).toEqual({ kind: 'completed', output: 'text', usage: undefined });
    expect(foreignResultOutcome([1, 2])).toEqual({ kind: 'completed', output: [1, 2], usage: undefined });
    expect(foreignResultOutcome(null)).toEqual({ kind: 'completed', output: null, usage: undefined });
    // `output` alone is not the envelope: without `usage` the object is the output.
    expect(foreignResultOutcome({ output: 'x' })).toEqual({
      kind: 'completed',
      output: { output: 'x' },
      usage: undefined,
    });
    expect(foreignResultOutcome({ output: 'x', usage: {}, extra: 1 })).toMatchObject({
      output: { output: 'x', usage: {}, extra: 1 },
    });
    expect(isResultEnvelope({ usage: {} })).toBe(true);
  });

  it('takes the usage of an envelope as reported, unpriced when it carries no costUsd', () => {
    expect(
      foreignResultOutcome({
        output: { summary: 's' },
        usage: { inputTokens: 10, outputTokens: 2, model: 'm', costUsd: 0.5 },
      }),
    ).toEqual({
      kind: 'completed',
      output: { summary: 's' },
      usage: { inputTokens: 10, outputTokens: 2, model: 'm', costUsd: 0.5 },
    });
    expect(foreignResultOutcome({ output: 1, usage: { inputTokens: 10, model: 'm' } })).toEqual({
      kind: 'completed',
      output: 1,
      usage: { inputTokens: 10, model: 'm' },
    });
  });

  it('fails the task without retry when the usage does not fit the contract, saying where', () => {
    expect(foreignResultOutcome({ output: 1, usage: { inputTokens: -1 } })).toMatchObject({
      kind: 'failed',
      errorType: 'TeamInvalidUsage',
      nonRetryable: true,
      message: expect.stringContaining('usage.inputTokens'),
    });
    expect(foreignResultOutcome({ usage: { tokens: 5 } })).toMatchObject({
      kind: 'failed',
      errorType: 'TeamInvalidUsage',
    });
  });

  it('fails the task without retry when the output is over 64 KiB, and still charges its usage', () => {
    const big = 'x'.repeat(MAX_OUTPUT_BYTES);
    expect(jsonBytes(big)).toBe(MAX_OUTPUT_BYTES + 2);
    expect(foreignResultOutcome({ output: big, usage: { costUsd: 0.1 } })).toMatchObject({
      kind: 'failed',
      errorType: 'TeamOutputTooLarge',
      nonRetryable: true,
      usage: { costUsd: 0.1 },
      message: expect.stringContaining(`${MAX_OUTPUT_BYTES + 2} bytes, over the ${MAX_OUTPUT_BYTES}-byte bound`),
    });
    expect(foreignResultOutcome('é'.repeat(MAX_OUTPUT_BYTES / 2))).toMatchObject({
      kind: 'failed',
      errorType: 'TeamOutputTooLarge',
    });
  });
});

describe("what a foreign activity's failure carries into the run", () => {
  it('keeps only the outcome fields, within their bounds', () => {
    const spread = {
      kind: 'failed',
      message: 'm'.repeat(10_000),
      errorType: 'E',
      nonRetryable: true,
      0: 'h',
      1: 'i',
    } as unknown as AttemptOutcome;
    const bounded = boundForeignOutcome(spread);
    expect(Object.keys(bounded).sort()).toEqual(['errorType', 'kind', 'message', 'nonRetryable']);
    expect((bounded as { message: string }).message).toHaveLength(4_000);
  });

  it('drops usage that does not validate, an output over the bound and an identity that is not a short string', () => {
    expect(
      boundForeignOutcome({
        kind: 'cancelled',
        usage: { inputTokens: 'lots' } as never,
        output: 'x'.repeat(MAX_OUTPUT_BYTES + 1),
        workerIdentity: { name: 'w' } as never,
      }),
    ).toEqual({ kind: 'cancelled' });
    expect(boundForeignOutcome({ kind: 'lease-lost', workerIdentity: 'py-victim' })).toEqual({
      kind: 'lease-lost',
      workerIdentity: 'py-victim',
    });
    expect(
      boundForeignOutcome({ kind: 'failed', message: 'x', nonRetryable: false, usage: { inputTokens: 3 } }),
    ).toEqual({
      kind: 'failed',
      message: 'x',
      nonRetryable: false,
      usage: { inputTokens: 3 },
    });
  });
});
