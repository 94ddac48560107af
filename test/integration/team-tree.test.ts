import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'vitest';
import { teamRunResult, type TeamRunHandle } from '../../src/client';
import type { Usage } from '../../src/plan/schema';
import * as msg from '../../src/workflows/messages';
import { startRun, testClient, waitFor } from '../helpers/env';
import { eventsOf, workerForTest } from '../helpers/scenario';
import { abortRun, tempDir } from './takeover-helpers';

/** A shell task that reports `usage` as an agent CLI would (docs/executors.md, `::teamrun-usage::`). */
const reporting = (key: string, usage: Usage, extra: object = {}) => ({
  key,
  executor: { kind: 'shell', command: `echo '::teamrun-usage::${JSON.stringify(usage)}'` },
  ...extra,
});
const team = (key: string, plan: Record<string, unknown>, extra: object = {}) => ({
  key,
  executor: { kind: 'team', plan },
  ...extra,
});

/** A child run's handle by its workflow id (`<parent>/<key>#<token>`). */
async function childHandle(workflowId: string): Promise<TeamRunHandle> {
  return (await testClient()).workflow.getHandle(workflowId) as unknown as TeamRunHandle;
}

describe.concurrent('teams of teams: a task whose attempt is a child teamRun workflow', () => {
  it('root -> team -> team -> shell and noop tasks: succeeds, child ids name the path, and usage is charged once per level', async ({
    expect,
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const handle = await startRun(
      {
        name: 'tree',
        teammates: 2,
        awaitAdjudication: false,
        budget: { maxTokens: 10_000 },
        tasks: [
          reporting('r', { inputTokens: 6, outputTokens: 4, model: 'm' }),
          team('A', {
            name: 'level-1',
            budget: { maxTokens: 2_000 },
            tasks: [
              reporting('a1', { inputTokens: 20, model: 'm' }),
              team('B', {
                name: 'level-2',
                budget: { maxTokens: 500 },
                tasks: [
                  reporting('b1', { inputTokens: 25, outputTokens: 5, model: 'm' }),
                  { key: 'b2', executor: { kind: 'noop' } },
                ],
              }),
            ],
          }),
        ],
      },
      worker.taskQueue,
    );
    const result = await handle.result();
    expect(result.status).toBe('succeeded');

    const aId = `${handle.workflowId}/A#1`;
    const bId = `${aId}/B#1`;
    const [a, b] = await Promise.all([childHandle(aId), childHandle(bId)]);
    const [aDesc, bDesc] = await Promise.all([a.describe(), b.describe()]);
    expect([aDesc.status.name, bDesc.status.name]).toEqual(['COMPLETED', 'COMPLETED']);
    expect(aDesc.raw.workflowExecutionInfo?.parentExecution?.workflowId).toBe(handle.workflowId);
    expect(bDesc.raw.workflowExecutionInfo?.parentExecution?.workflowId).toBe(aId);
    const [aResult, bResult] = await Promise.all([a.result(), b.result()]);

    // Each level's limits are at most its carve: B's own 500 (under what A reserved for it), A's own 2,000.
    expect(bResult.budget.limits.maxTokens).toBe(500);
    expect(aResult.budget.limits.maxTokens).toBe(2_000);
    // Charges: B's shell 30; A's shell 20 + B's 30; the root's shell 10 + A's 50. Each charged once.
    expect(bResult.budget.used.tokens).toBe(30);
    expect(aResult.budget.used.tokens).toBe(50);
    expect(result.budget.used.tokens).toBe(10 + 20 + 30);
    expect(result.budget.reserved.tokens).toBe(0);
    // The team task's output is the child's: its id, status and its tasks' outputs.
    const aView = result.tasks.find((t) => t.key === 'A');
    expect(aView?.output).toMatchObject({ run: aId, status: 'succeeded' });
    const aOutput = aView?.output as { outputs: Record<string, unknown> } | undefined;
    expect(aOutput?.outputs.B).toMatchObject({ run: bId });
  });

  it("a grandchild whose task needs more than the root's maxTokens leaves it is refused before it spends", async ({
    expect,
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const marker = path.join(tempDir('team-carve'), 'spent');
    const handle = await startRun(
      {
        name: 'tree-carve',
        teammates: 1,
        awaitAdjudication: false,
        retry: { maxAttempts: 1 },
        budget: { maxTokens: 250 },
        tasks: [
          team('A', {
            name: 'level-1',
            teammates: 1,
            retry: { maxAttempts: 1 },
            tasks: [
              team('B', {
                name: 'level-2',
                awaitAdjudication: false,
                tasks: [
                  {
                    key: 'greedy',
                    estimate: { tokens: 900 },
                    executor: {
                      kind: 'shell',
                      command: `touch ${marker}; echo '::teamrun-usage::{"inputTokens":900,"model":"m"}'`,
                    },
                  },
                ],
              }),
            ],
          }),
        ],
      },
      worker.taskQueue,
    );
    const result = await handle.result();
    const b = await childHandle(`${handle.workflowId}/A#1/B#1`);
    const bResult = await teamRunResult(b);
    // The carve went down whole: the root's 250 to A, A's 250 to B.
    expect(bResult.budget.limits.maxTokens).toBe(250);
    expect(bResult).toMatchObject({ status: 'budget_stopped', budgetReason: 'max-tokens', executions: 0 });
    expect(existsSync(marker)).toBe(false);
    expect(result.status).toBe('failed');
    expect(result.budget.used.tokens).toBe(0);
    expect(result.budget.used.tokens).toBeLessThanOrEqual(250);
  });

  it('abortRun at the root cancels every level (three below it), each ending aborted with the root code', async ({
    expect,
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const handle = await startRun(
      {
        name: 'tree-abort',
        teammates: 1,
        awaitAdjudication: false,
        tasks: [
          team('A', {
            name: 'level-1',
            tasks: [
              team('B', {
                name: 'level-2',
                // Governed by an operator the root's actor is not: the parent's cascade passes with its token.
                governance: { operators: ['ops'] },
                tasks: [
                  team('C', {
                    name: 'level-3',
                    tasks: [{ key: 'long', executor: { kind: 'shell', command: 'sleep 120' } }],
                  }),
                ],
              }),
            ],
          }),
        ],
      },
      worker.taskQueue,
    );
    const aId = `${handle.workflowId}/A#1`;
    const bId = `${aId}/B#1`;
    const cId = `${bId}/C#1`;
    await waitFor('the great-grandchild to run its task', async () => {
      try {
        return (await (await childHandle(cId)).query(msg.activeClaimsQuery)).length === 1;
      } catch {
        return false;
      }
    });
    expect(await abortRun(handle, { code: 'OPS_HALT', actor: 'lead', reason: 'stop the tree' })).toMatchObject({
      ok: true,
    });
    const result = await handle.result();
    expect(result.status).toBe('aborted');
    for (const id of [aId, bId, cId]) {
      const child = await childHandle(id);
      const childResult = await teamRunResult(child);
      expect(childResult.status).toBe('aborted');
      const [abort] = await eventsOf(child, 'run:abort-requested');
      expect(abort).toMatchObject({
        code: 'OPS_HALT',
        actor: 'lead',
        reason: 'the parent run was aborted: stop the tree',
      });
      expect((await child.describe()).status.name).not.toBe('RUNNING');
      // Each child ended with its result, so its parent charged what it used, not its carve.
      expect(childResult.budget.usageUnknown).toBe(false);
    }
    expect(result.budget.usageUnknown).toBe(false);
    expect(result.tasks.find((t) => t.key === 'A')).toMatchObject({ status: 'adjudication' });
    const c = await teamRunResult(await childHandle(cId));
    expect(c.tasks.find((t) => t.key === 'long')?.status).not.toBe('succeeded');
  });

  it('interruptTask on a team task stops its child with the interrupt, and the task goes to adjudication', async ({
    expect,
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const handle = await startRun(
      {
        name: 'tree-interrupt',
        teammates: 1,
        tasks: [
          team('A', { name: 'level-1', tasks: [{ key: 'long', executor: { kind: 'shell', command: 'sleep 120' } }] }),
        ],
      },
      worker.taskQueue,
    );
    const aId = `${handle.workflowId}/A#1`;
    await waitFor('the child to run its task', async () => {
      try {
        return (await (await childHandle(aId)).query(msg.activeClaimsQuery)).length === 1;
      } catch {
        return false;
      }
    });
    await handle.executeUpdate(msg.interruptTaskUpdate, {
      args: [{ key: 'A', fencingToken: 1, actor: 'lead', reason: 'wrong plan' }],
    });
    const child = await childHandle(aId);
    const childResult = await teamRunResult(child);
    expect(childResult.status).toBe('aborted');
    expect((await eventsOf(child, 'run:abort-requested'))[0]).toMatchObject({
      code: 'TEAM_TASK_HUMAN_INTERRUPTED',
      actor: 'lead',
      reason: `interrupted in the parent run ${handle.workflowId}, task A#1: wrong plan`,
    });
    await waitFor(
      'the team task to wait for a human',
      async () => (await handle.query(msg.statusQuery)).state === 'awaiting_adjudication',
    );
    const [record] = await handle.query(msg.adjudicationsQuery);
    expect(record).toMatchObject({
      key: 'A',
      code: 'TEAM_TASK_HUMAN_INTERRUPTED',
      actor: 'lead',
      reason: 'wrong plan',
    });
  });

  it("a child that fails goes through the parent's retry: each attempt a new child with a new token", async ({
    expect,
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const handle = await startRun(
      {
        name: 'tree-retry',
        awaitAdjudication: false,
        retry: { maxAttempts: 2, backoffMs: 0 },
        tasks: [
          team('A', {
            name: 'level-1',
            retry: { maxAttempts: 1 },
            tasks: [{ key: 'bad', executor: { kind: 'shell', command: 'exit 3' } }],
          }),
        ],
      },
      worker.taskQueue,
    );
    const result = await handle.result();
    expect(result.status).toBe('failed');
    expect(result.tasks[0]).toMatchObject({ key: 'A', status: 'failed', attempts: 2 });
    expect(result.tasks[0].lastError).toContain(`the child team run ${handle.workflowId}/A#2 ended failed`);
    for (const token of [1, 2]) {
      const child = await childHandle(`${handle.workflowId}/A#${token}`);
      expect((await child.result()).status).toBe('failed');
    }
  });
});
