import { describe, expect, it } from 'vitest';
import type { TeamPlanInput } from '../../src/plan/schema';
import { abortRunUpdate, activeClaimsQuery, interruptTaskUpdate, statusQuery } from '../../src/workflows/messages';
import type { QueuedRun } from '../../src/client/queue';
import { teamrun as runCli } from '../cli/teamrun-cli';
import { uniqueQueue, waitFor } from '../helpers/env';
import { runForTest, workerForTest } from '../helpers/scenario';
import type { TeamRunHandle } from '../../src/client';

const longTask = (key: string) => ({ key, executor: { kind: 'sleep', ms: 600_000 } });

async function interrupt(handle: TeamRunHandle, key: string, actor: string, reason: string) {
  const claim = await waitFor(`${key} to hold a lease`, async () =>
    (await handle.query(activeClaimsQuery)).find((c) => c.key === key),
  );
  const verdict = await handle.executeUpdate(interruptTaskUpdate, {
    args: [{ key, fencingToken: claim.fencingToken, actor, reason, requestId: `${key}-takeover` }],
  });
  expect(verdict.ok).toBe(true);
}

describe('teamrun queue: one queue of adjudications across runs', () => {
  it('lists exactly the open runs that wait on a human, with each pending task', async () => {
    const worker = await workerForTest();
    const team = uniqueQueue('queue-team');
    const plan = (tasks: TeamPlanInput['tasks']): TeamPlanInput => ({ name: team, teammates: 2, tasks });

    // 1. Interrupted: its only task waits for a decision.
    const interrupted = await runForTest(plan([longTask('deploy')]), worker);
    await interrupt(interrupted, 'deploy', 'alice', 'taking over the deploy');
    // 2. Aborted while two tasks ran: both wait for a decision.
    const aborted = await runForTest(plan([longTask('index'), longTask('render')]), worker);
    await waitFor('both tasks to run', async () => (await aborted.query(activeClaimsQuery)).length === 2);
    expect(
      (await aborted.executeUpdate(abortRunUpdate, { args: [{ actor: 'bob', reason: 'release freeze' }] })).ok,
    ).toBe(true);
    // 3. Still working, nothing to decide: not in the queue.
    const working = await runForTest(plan([longTask('crawl')]), worker);
    await waitFor('crawl to run', async () => (await working.query(activeClaimsQuery)).length === 1);

    for (const handle of [interrupted, aborted]) {
      await waitFor(
        `${handle.workflowId} to await adjudication`,
        async () => (await handle.query(statusQuery)).state === 'awaiting_adjudication',
      );
    }
    // Visibility follows the search attributes a moment later.
    const queue = await waitFor('both runs in the queue', async () => {
      const out = await runCli(['queue', '--team', team, '--json']);
      const runs = JSON.parse(out.stdout) as QueuedRun[];
      return runs.length === 2 ? runs : null;
    });

    const byId = Object.fromEntries(queue.map((run) => [run.workflowId, run]));
    expect(Object.keys(byId).sort()).toEqual([interrupted.workflowId, aborted.workflowId].sort());
    expect(byId[interrupted.workflowId]).toMatchObject({ team, pendingCount: 1, error: null });
    expect(byId[interrupted.workflowId].pending).toEqual([
      expect.objectContaining({
        key: 'deploy',
        code: 'TEAM_TASK_HUMAN_INTERRUPTED',
        reason: 'taking over the deploy',
        actor: 'alice',
        fencingToken: 1,
      }),
    ]);
    expect(byId[aborted.workflowId].pending.map((p) => [p.key, p.code, p.actor, p.reason]).sort()).toEqual([
      ['index', 'TEAM_RUN_ABORTED_ADJUDICATION_REQUIRED', 'bob', 'release freeze'],
      ['render', 'TEAM_RUN_ABORTED_ADJUDICATION_REQUIRED', 'bob', 'release freeze'],
    ]);
    for (const run of queue) for (const p of run.pending) expect(p.ageMs).toBeGreaterThanOrEqual(0);

    const text = await runCli(['queue', '--team', team]);
    expect(text.stdout).toMatch(/RUN\s+TEAM\s+TASK\s+CODE\s+TOKEN\s+AGE\s+ACTOR\s+REASON/);
    expect(text.stdout).toContain('2 run(s) awaiting adjudication, 3 pending task(s)');
    expect(text.stdout).not.toContain(working.workflowId);
  });
});
