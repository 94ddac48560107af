import type { WorkflowHandle, WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import type { TeamPlanInput } from '../../src/plan/schema';
import type { TeamRunHandle } from '../../src/client';
import type { TaskView } from '../../src/team/views';
import * as msg from '../../src/workflows/messages';
import { testClient, waitFor } from '../helpers/env';
import { runForTest, workerForTest } from '../helpers/scenario';

type TaskInput = TeamPlanInput['tasks'][number];

const BATCHES = 50;
const BATCH = 100;

/**
 * Batch `b` of 100 noop tasks: each depends on its twin in the batch before (settled or not by
 * the time it is added), and every tenth on the nine before it in its own batch.
 */
function batch(b: number): TaskInput[] {
  return Array.from({ length: BATCH }, (_, j): TaskInput => {
    const n = b * BATCH + j;
    const dependsOn: string[] = [];
    if (b > 0) dependsOn.push(key(n - BATCH));
    if (j % 10 === 9) for (let k = n - 9; k < n; k++) dependsOn.push(key(k));
    return { key: key(n), dependsOn, executor: { kind: 'noop' } };
  });
}
const key = (n: number) => `t${String(n).padStart(4, '0')}`;

/** `gate` holds the run open: it is taken over by a human and accepted once everything else is in. */
const gate: TaskInput = { key: 'gate', executor: { kind: 'sleep', ms: 600_000 } };

function plan(name: string, tasks: TaskInput[]): TeamPlanInput {
  // A low handover threshold, so a run of 5,000 quick tasks continues as new several times.
  return { name, teammates: 50, continueAsNewAfterEvents: 3_000, tasks: [gate, ...tasks] };
}

async function holdGate(handle: TeamRunHandle): Promise<void> {
  const [claim] = await waitFor('the gate to start', async () => {
    const claims = await handle.query(msg.activeClaimsQuery);
    return claims.some((c) => c.key === 'gate') ? claims.filter((c) => c.key === 'gate') : null;
  });
  const verdict = await handle.executeUpdate(msg.interruptTaskUpdate, {
    args: [{ key: 'gate', fencingToken: claim.fencingToken, requestId: 'hold', actor: 'test' }],
  });
  expect(verdict.ok).toBe(true);
}

async function releaseGate(handle: TeamRunHandle): Promise<void> {
  await waitFor(
    'the gate in adjudication',
    async () => (await handle.query(msg.adjudicationsQuery)).some((a) => a.key === 'gate'),
    120_000,
  );
  await handle.executeUpdate(msg.adjudicateUpdate, {
    args: [{ key: 'gate', decision: 'accept', decisionId: 'open', actor: 'test' }],
  });
}

/** Every task view of a closed run, through the paged `tasks` query. */
async function allTasks(handle: TeamRunHandle): Promise<TaskView[]> {
  const out: TaskView[] = [];
  for (;;) {
    const page = await handle.query(msg.tasksQuery, { offset: out.length, limit: 2_000 });
    out.push(...page);
    if (page.length < 2_000) return out;
  }
}

/** How many workflow runs the chain went through. */
async function chainLength(handle: TeamRunHandle): Promise<number> {
  const client = await testClient();
  let runs = 0;
  let runId: string | null | undefined = (handle as WorkflowHandle as WorkflowHandleWithFirstExecutionRunId)
    .firstExecutionRunId;
  while (runId) {
    runs += 1;
    const runHandle: WorkflowHandle = client.workflow.getHandle(handle.workflowId, runId);
    const events = (await runHandle.fetchHistory()).events ?? [];
    runId = events.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId;
  }
  return runs;
}

const outcome = (tasks: TaskView[]) => tasks.map((t) => [t.key, t.status, t.attempts, t.dependsOn.join(',')]).sort();

describe('a run that grows to 5,000 tasks', () => {
  it('through addTasks batches of 100, continuing as new on the way, ends exactly as the same tasks given in the plan', async () => {
    const worker = await workerForTest();
    const all = Array.from({ length: BATCHES }, (_, b) => batch(b)).flat();

    const grown = await runForTest(plan('spawn-grown', []), worker);
    const given = await runForTest(plan('spawn-given', all), worker);
    await Promise.all([holdGate(grown), holdGate(given)]);
    for (let b = 0; b < BATCHES; b++) {
      const answer = await grown.addTasks({ requestId: `batch-${b}`, actor: 'test', tasks: batch(b) });
      expect(answer.added).toHaveLength(BATCH);
    }
    // A batch sent again (a client retrying after a lost answer) adds nothing, in whatever run of the chain it lands.
    expect(
      await grown.executeUpdate(msg.addTasksUpdate, {
        args: [{ requestId: `batch-${BATCHES - 1}`, actor: 'test', tasks: batch(BATCHES - 1) }],
      }),
    ).toMatchObject({
      idempotent: true,
    });
    await Promise.all([releaseGate(grown), releaseGate(given)]);
    const [grownResult, givenResult] = await Promise.all([grown.result(), given.result()]);

    expect(grownResult.status).toBe('succeeded');
    expect(grownResult.stats).toEqual(givenResult.stats);
    expect(grownResult.stats).toMatchObject({ total: 5_001, succeeded: 5_001 });
    expect(grownResult.executions).toBe(givenResult.executions);
    expect(grownResult.executions).toBe(5_001);
    const [grownTasks, givenTasks] = await Promise.all([allTasks(grown), allTasks(given)]);
    expect(grownTasks).toHaveLength(5_001);
    expect(outcome(grownTasks)).toEqual(outcome(givenTasks));
    const status = await grown.query(msg.statusQuery);
    expect(status.stats.total).toBe(5_001);

    const handovers = (await chainLength(grown)) - 1;
    console.log(`grown run: ${handovers} handovers; given run: ${(await chainLength(given)) - 1} handovers`);
    expect(handovers).toBeGreaterThanOrEqual(2);
  }, 900_000);
});
