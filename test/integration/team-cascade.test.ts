import path from 'node:path';
import { describe, it } from 'vitest';
import { teamRunResult, type TeamRunHandle } from '../../src/client';
import * as msg from '../../src/workflows/messages';
import { startRun, testClient, waitFor } from '../helpers/env';
import { eventsOf, workerForTest } from '../helpers/scenario';
import { tempDir } from './takeover-helpers';

const team = (key: string, plan: Record<string, unknown>) => ({ key, executor: { kind: 'team', plan } });
/** Sleeps long on its first run only (a marker file says it ran), so a retried tree finishes at once. */
const once = (key: string, dir: string) => {
  const marker = path.join(dir, key);
  return {
    key,
    executor: { kind: 'shell', command: `if [ -f ${marker} ]; then echo again; else touch ${marker}; sleep 120; fi` },
  };
};

async function childHandle(workflowId: string): Promise<TeamRunHandle> {
  return (await testClient()).workflow.getHandle(workflowId) as unknown as TeamRunHandle;
}

async function activeIn(workflowId: string): Promise<number> {
  try {
    return (await (await childHandle(workflowId)).query(msg.activeClaimsQuery)).length;
  } catch {
    return -1;
  }
}

describe.concurrent('control that cascades down a tree of teams', () => {
  it('interruptTask on a team task: attempts at every level below go to adjudication in their own run naming it; retry starts a new child', async ({
    expect,
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const dir = tempDir('team-cascade');
    // Both levels below are governed by an operator the root's interrupter is not: the cascade passes with its token.
    const governance = { operators: ['ops'] };
    const handle = await startRun(
      {
        name: 'tree-cascade',
        teammates: 2,
        tasks: [
          team('A', {
            name: 'level-1',
            teammates: 2,
            governance,
            tasks: [
              once('a-long', dir),
              team('B', {
                name: 'level-2',
                teammates: 2,
                governance,
                tasks: [once('b1', dir), once('b2', dir)],
              }),
            ],
          }),
          team('Z', { name: 'side', tasks: [once('z-long', dir)] }),
        ],
      },
      worker.taskQueue,
    );
    const root = handle.workflowId;
    const aId = `${root}/A#1`;
    const bId = `${aId}/B#1`;
    await waitFor(
      'every level to run its tasks',
      async () => (await activeIn(aId)) === 2 && (await activeIn(bId)) === 2,
    );

    // A cascade that does not quote the token the parent gave the child is nobody's: refused, and nothing stops.
    const a = await childHandle(aId);
    await a.signal(msg.abortRunSignal, {
      actor: 'lead',
      code: 'FORGED',
      cascade: { token: 'not-the-parents-token', interrupt: true },
    });
    await waitFor('the forged cascade to be refused', async () => (await eventsOf(a, 'control:rejected')).length > 0);
    expect((await eventsOf(a, 'control:rejected'))[0]).toMatchObject({ message: 'abortRun', reason: 'forbidden' });
    expect(await activeIn(aId)).toBe(2);

    const interruptedAt = Date.now();
    await handle.executeUpdate(msg.interruptTaskUpdate, {
      args: [{ key: 'A', fencingToken: 1, actor: 'lead', reason: 'wrong plan' }],
    });
    const named = {
      code: 'TEAM_TASK_HUMAN_INTERRUPTED',
      actor: 'lead',
      reason: `interrupted in the parent run ${root}, task A#1: wrong plan`,
    };
    // The child and the grandchild each end with their attempts in adjudication in their own run, naming the
    // interrupt (its code, actor, and the parent run and task it began at); the refused forgery changed nothing.
    const [aResult, bResult] = await Promise.all([teamRunResult(a), teamRunResult(await childHandle(bId))]);
    // A figure, not an assertion (the machine's load sets it): from the interrupt to both levels below ended.
    process.stdout.write(
      `[team-cascade] child and grandchild ended ${Date.now() - interruptedAt} ms after the interrupt\n`,
    );
    for (const [result, keys] of [
      [aResult, ['B', 'a-long']],
      [bResult, ['b1', 'b2']],
    ] as const) {
      expect(result.status).toBe('aborted');
      expect(result.adjudications.map((r) => r.key).sort()).toEqual(keys);
      for (const record of result.adjudications) expect(record).toMatchObject(named);
      for (const key of keys) expect(result.tasks.find((t) => t.key === key)?.status).toBe('adjudication');
    }
    expect((await eventsOf(a, 'run:abort-requested'))[0]).toMatchObject({ ...named, fromParent: 'interrupt' });
    // The other team task at the root was not touched.
    expect(await activeIn(`${root}/Z#1`)).toBe(1);

    // In the root, the team task waits for a person, named by the same interrupt.
    await waitFor('A to wait for a human in the root', async () =>
      (await handle.query(msg.adjudicationsQuery)).some((r) => r.key === 'A'),
    );
    const [record] = await handle.query(msg.adjudicationsQuery);
    expect(record).toMatchObject({
      key: 'A',
      code: 'TEAM_TASK_HUMAN_INTERRUPTED',
      actor: 'lead',
      reason: 'wrong plan',
    });

    // retry: a new child with a new token (A#2), whose tasks (run once already) now finish.
    await handle.executeUpdate(msg.adjudicateUpdate, {
      args: [{ key: 'A', decision: 'retry', decisionId: 'retry-A', actor: 'lead' }],
    });
    // The side team is interrupted and accepted with a result a person gives.
    await handle.executeUpdate(msg.interruptTaskUpdate, { args: [{ key: 'Z', fencingToken: 1, actor: 'lead' }] });
    await waitFor('Z to wait for a human in the root', async () =>
      (await handle.query(msg.adjudicationsQuery)).some((r) => r.key === 'Z'),
    );
    await handle.executeUpdate(msg.adjudicateUpdate, {
      args: [{ key: 'Z', decision: 'accept', decisionId: 'accept-Z', actor: 'lead', result: { byHand: true } }],
    });
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    const aView = result.tasks.find((t) => t.key === 'A');
    expect(aView).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect(aView?.output).toMatchObject({ run: `${root}/A#2`, status: 'succeeded' });
    expect(result.tasks.find((t) => t.key === 'Z')).toMatchObject({ status: 'succeeded', output: { byHand: true } });
    expect((await teamRunResult(await childHandle(`${root}/A#2/B#1`))).status).toBe('succeeded');
  });

  it('reject fails an interrupted team task; a person still acts on a lower level directly', async ({
    expect,
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const dir = tempDir('team-cascade-reject');
    const handle = await startRun(
      {
        name: 'tree-reject',
        teammates: 1,
        tasks: [
          team('A', {
            name: 'level-1',
            teammates: 2,
            tasks: [once('a1', dir), once('a2', dir)],
          }),
        ],
      },
      worker.taskQueue,
    );
    const aId = `${handle.workflowId}/A#1`;
    await waitFor('the child to run both tasks', async () => (await activeIn(aId)) === 2);
    const a = await childHandle(aId);
    // A person interrupts one of the child's tasks directly: it waits there, while the rest runs on.
    await a.executeUpdate(msg.interruptTaskUpdate, { args: [{ key: 'a1', fencingToken: 1, actor: 'ops' }] });
    await waitFor('a1 to wait for a human in the child', async () =>
      (await a.query(msg.adjudicationsQuery)).some((r) => r.key === 'a1'),
    );
    expect(await activeIn(aId)).toBe(1);
    expect((await handle.query(msg.statusQuery)).state).toBe('running');

    await handle.executeUpdate(msg.interruptTaskUpdate, {
      args: [{ key: 'A', fencingToken: 1, actor: 'lead', reason: 'drop it' }],
    });
    const aResult = await teamRunResult(a);
    expect(aResult.status).toBe('aborted');
    // The one a person interrupted keeps their interrupt; the other names the parent's.
    expect(aResult.adjudications.find((r) => r.key === 'a1')).toMatchObject({ actor: 'ops' });
    expect(aResult.adjudications.find((r) => r.key === 'a2')).toMatchObject({
      code: 'TEAM_TASK_HUMAN_INTERRUPTED',
      actor: 'lead',
      reason: `interrupted in the parent run ${handle.workflowId}, task A#1: drop it`,
    });
    await waitFor('A to wait for a human in the root', async () =>
      (await handle.query(msg.adjudicationsQuery)).some((r) => r.key === 'A'),
    );
    await handle.executeUpdate(msg.adjudicateUpdate, {
      args: [{ key: 'A', decision: 'reject', decisionId: 'reject-A', actor: 'lead', reason: 'not needed' }],
    });
    const result = await handle.result();
    expect(result.status).toBe('failed');
    expect(result.tasks.find((t) => t.key === 'A')).toMatchObject({ status: 'failed', attempts: 1 });
  });
});
