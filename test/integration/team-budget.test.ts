import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'vitest';
import { teamRunResult, type TeamRunHandle } from '../../src/client';
import type { RunResult } from '../../src/contract';
import { startRun, testClient, uniqueQueue, waitFor } from '../helpers/env';
import { eventsOf, workerForTest } from '../helpers/scenario';
import { tempDir } from './takeover-helpers';

/** `teamrun reserve --tokens K` without a Node process: the same request to the attempt's gateway; prints the status. */
const reserveStatus = (tokens: number) =>
  `curl -s -o /dev/null -w '%{http_code}' --unix-socket "$TEAMRUN_ATTEMPT_SOCKET" ` +
  `-H "Authorization: Bearer $TEAMRUN_ATTEMPT_SECRET" -d '{"tokens":${tokens}}' http://gateway/reserve`;
const usageLine = (tokens: number) => `echo '::teamrun-usage::{"inputTokens":${tokens},"model":"m"}'`;

/** A shell task that reserves exactly what it reports (its estimate): its reservation never races the others'. */
const exact = (key: string, tokens: number) => ({
  key,
  estimate: { tokens },
  executor: { kind: 'shell', command: usageLine(tokens) },
});

/**
 * root (maxTokens 300) -> A (its plan's maxTokens 100, carved from the root) -> B (50, carved from A) -> `spend`.
 * `spend` reserves 40 (inside B's carve) and spends it, then reserves `ask` more: B lacks it, asks A, A asks the root.
 */
function tree(name: string, spend: string) {
  const quiet = { awaitAdjudication: false, retry: { maxAttempts: 1 } };
  return {
    name,
    teammates: 2,
    ...quiet,
    budget: { maxTokens: 300 },
    tasks: [
      exact('r', 5),
      {
        key: 'A',
        executor: {
          kind: 'team',
          plan: {
            name: `${name}-A`,
            teammates: 2,
            ...quiet,
            budget: { maxTokens: 100 },
            tasks: [
              exact('a1', 7),
              {
                key: 'B',
                executor: {
                  kind: 'team',
                  plan: {
                    name: `${name}-B`,
                    ...quiet,
                    budget: { maxTokens: 50 },
                    tasks: [{ key: 'spend', estimate: { tokens: 10 }, executor: { kind: 'shell', command: spend } }],
                  },
                },
              },
            ],
          },
        },
      },
    ],
  };
}

async function childHandle(workflowId: string): Promise<TeamRunHandle> {
  return (await testClient()).workflow.getHandle(workflowId) as unknown as TeamRunHandle;
}

/** Each level's used tokens are its own tasks' charges plus its child's, once: the identity the tree keeps. */
function expectChargedOnce(expect: (v: unknown) => any, root: RunResult, a: RunResult, b: RunResult): void {
  expect(a.budget.used.tokens).toBe(7 + b.budget.used.tokens);
  expect(root.budget.used.tokens).toBe(5 + a.budget.used.tokens);
  expect(root.budget.used.tokens).toBeLessThanOrEqual(300);
  for (const r of [root, a, b]) expect(r.budget.reserved.tokens).toBe(0);
  for (const r of [root, a, b]) expect(r.budget.usageUnknown).toBe(false);
}

describe.concurrent('budgets across a tree of teams: a child asks its parent for more', () => {
  it("a grandchild asking past the root's maxTokens is refused before it spends; the root stays within its limit", async ({
    expect,
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const marker = path.join(tempDir('team-ask-refused'), 'spent');
    const spend =
      `[ "$(${reserveStatus(40)})" = 200 ] && ${usageLine(40)}; ` +
      `c=$(${reserveStatus(400)}); echo "asked: $c"; [ "$c" = 200 ] && touch ${marker} && ${usageLine(400)}; sleep 60`;
    const handle = await startRun(tree('ask-refused', spend), worker.taskQueue);
    const root = await handle.result();
    const aId = `${handle.workflowId}/A#1`;
    const a = await teamRunResult(await childHandle(aId));
    const b = await teamRunResult(await childHandle(`${aId}/B#1`));

    // Refused before it spent: the second spend never ran, and the attempt stopped with the budget code.
    expect(existsSync(marker)).toBe(false);
    const spendView = b.tasks.find((t) => t.key === 'spend');
    expect(JSON.stringify(spendView)).toContain('TEAM_TASK_BUDGET_EXCEEDED');
    expect(b.status).not.toBe('succeeded');
    // The ask went all the way up: A asked the root (an update the root took, then refused); no level's limit grew.
    const rootHistory = await handle.fetchHistory();
    const asks = (rootHistory.events ?? []).filter(
      (e) => e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name === 'extendChildCarve',
    );
    expect(asks.length).toBeGreaterThanOrEqual(1);
    expect(await eventsOf(await childHandle(aId), 'budget:carve-extended')).toEqual([]);
    expect(await eventsOf(handle, 'budget:child-carve-extended')).toEqual([]);
    expect([root.budget.limits.maxTokens, a.budget.limits.maxTokens, b.budget.limits.maxTokens]).toEqual([
      300, 100, 50,
    ]);
    // What was spent (40 in B) is charged once at each level.
    expect(b.budget.used.tokens).toBe(40);
    expectChargedOnce(expect, root, a, b);
    expect(root.budget.used.tokens).toBe(5 + 7 + 40);
  });

  it('a grandchild asking for what the root has is granted through every level and completes; strangers are refused', async ({
    expect,
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const dir = tempDir('team-ask-granted');
    const go = path.join(dir, 'go');
    const spend =
      `[ "$(${reserveStatus(40)})" = 200 ] && ${usageLine(40)}; ` +
      `while [ ! -f ${go} ]; do sleep 0.2; done; ` +
      `[ "$(${reserveStatus(150)})" = 200 ] && ${usageLine(150)}`;
    const handle = await startRun(tree('ask-granted', spend), worker.taskQueue);
    const aId = `${handle.workflowId}/A#1`;
    const bId = `${aId}/B#1`;
    await waitFor(
      'the grandchild to run its task',
      async () => {
        try {
          return (await (await childHandle(bId)).describe()).status.name === 'RUNNING';
        } catch {
          return false;
        }
      },
      120_000,
    );
    // A workflow id is not a credential: the root answers only the child it started for A's attempt.
    const client = await testClient();
    const rootHandle = client.workflow.getHandle(handle.workflowId);
    const forged = { key: 'A', fencingToken: 1, childWorkflowId: aId, childRunId: 'not-its-run', tokens: 100 };
    const refusal = (request: object) =>
      rootHandle.executeUpdate('extendChildCarve', { args: [request] }).then(
        () => 'granted',
        (err: Error) => (err.cause instanceof Error ? err.cause.message : err.message),
      );
    expect(await refusal(forged)).toMatch(/^forbidden: extendChildCarve: .* is not the child this run started/);
    expect(await refusal({ ...forged, childWorkflowId: `${handle.workflowId}/A#2` })).toMatch(/^forbidden/);
    writeFileSync(go, '');

    const root = await handle.result();
    expect(root.status).toBe('succeeded');
    const a = await teamRunResult(await childHandle(aId));
    const b = await teamRunResult(await childHandle(bId));
    // B lacked 140 (its 50 less the 10 and 40 held); A had 43 of it (100 - 7 - 50) and asked the root for 97.
    expect(b.budget.limits.maxTokens).toBe(50 + 140);
    expect(a.budget.limits.maxTokens).toBe(100 + 97);
    expect(root.budget.limits.maxTokens).toBe(300);
    const [rootGrant] = await eventsOf(handle, 'budget:child-carve-extended');
    expect(rootGrant).toMatchObject({ key: 'A', child: aId, tokens: 97 });
    expect(b.budget.used.tokens).toBe(190);
    expectChargedOnce(expect, root, a, b);
    expect(root.budget.used.tokens).toBe(5 + 7 + 190);
  });

  it("an outsider holding a child's guessable id makes the team task fail clearly, naming it, and charges nothing", async ({
    expect,
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const client = await testClient();
    const rootId = uniqueQueue('squatted');
    // The squatter: any workflow at `<root>/A#1`, started first, on a queue no worker polls (it just sits there).
    const squatter = await client.workflow.start('teamRun', {
      workflowId: `${rootId}/A#1`,
      taskQueue: uniqueQueue('nobody'),
      args: [{ name: 'squatter', tasks: [{ key: 'x', executor: { kind: 'noop' } }] }],
    });
    onTestFinished(async () => {
      await squatter.terminate('test over').catch(() => undefined);
    });
    const handle = await startRun(
      {
        name: 'squatted',
        awaitAdjudication: false,
        retry: { maxAttempts: 1 },
        budget: { maxTokens: 1_000 },
        tasks: [{ key: 'A', executor: { kind: 'team', plan: { name: 'child', tasks: [exact('c', 3)] } } }],
      },
      worker.taskQueue,
      rootId,
    );
    const root = await handle.result();
    expect(root.status).toBe('failed');
    const a = root.tasks.find((t) => t.key === 'A');
    expect(JSON.stringify(a)).toContain(`TEAM_CHILD_ID_TAKEN: the child team run's id ${rootId}/A#1 is held by`);
    // No child of ours ran: nothing charged, and the usage is known (not the carve charged as an unknown end).
    expect(root.budget.used.tokens).toBe(0);
    expect(root.budget.usageUnknown).toBe(false);
    expect(root.budget.reserved.tokens).toBe(0);
    expect((await squatter.describe()).status.name).toBe('RUNNING');
  });

  it("two children running at once together spawn no more than the root's budget.tree.maxSpawnedTasks", async ({
    expect,
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const quiet = { awaitAdjudication: false, retry: { maxAttempts: 1 } };
    // Each child tries to add three tasks (one per shell task): six in all, against a tree limit of three.
    const spawner = (name: string) => ({
      name,
      teammates: 1,
      ...quiet,
      tasks: [1, 2, 3].map((i) => ({
        key: `s${i}`,
        allowSpawn: true,
        executor: {
          kind: 'shell',
          command: `echo '::teamrun-tasks::{"tasks":[{"key":"x${i}","executor":{"kind":"noop"}}]}'`,
        },
      })),
    });
    const handle = await startRun(
      {
        name: 'tree-spawns',
        teammates: 2,
        ...quiet,
        budget: { tree: { maxSpawnedTasks: 3 } },
        tasks: [
          { key: 'A', executor: { kind: 'team', plan: spawner('A') } },
          { key: 'B', executor: { kind: 'team', plan: spawner('B') } },
        ],
      },
      worker.taskQueue,
    );
    const root = await handle.result();
    const [a, b] = await Promise.all(
      ['A', 'B'].map(async (k) => teamRunResult(await childHandle(`${handle.workflowId}/${k}#1`))),
    );
    const spawned = (r: RunResult) => r.tasks.filter((t) => /^x\d$/.test(t.key)).length;
    // Each child was held to its share, the shares together within the root's limit, and more was asked than fit.
    const shares = [a, b].map((r) => r.budget.limits.tree?.maxSpawnedTasks ?? Infinity);
    expect(shares[0] + shares[1]).toBeLessThanOrEqual(3);
    expect(spawned(a)).toBeLessThanOrEqual(shares[0]);
    expect(spawned(b)).toBeLessThanOrEqual(shares[1]);
    expect(spawned(a) + spawned(b)).toBe(3);
    // Usage flows up: each child's tree figure is what it spawned, and the root's is their sum, nothing held at the end.
    expect([a.budget.tree?.spawnedTasks, b.budget.tree?.spawnedTasks]).toEqual([spawned(a), spawned(b)]);
    expect(root.budget.tree).toEqual({ spawnedTasks: 3, heldByChildren: 0 });
  });
  it("two children running at once together make no more attempts than the root's maxTasks, charged to the root", async ({
    expect,
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const quiet = { awaitAdjudication: false, retry: { maxAttempts: 1 } };
    // Each child has five tasks: ten attempts and the two team tasks' own, against a root limit of seven.
    const five = (name: string) => ({
      name,
      teammates: 1,
      ...quiet,
      tasks: [1, 2, 3, 4, 5].map((n) => ({ key: `n${n}`, executor: { kind: 'noop' } })),
    });
    const handle = await startRun(
      {
        name: 'tree-tasks',
        teammates: 2,
        ...quiet,
        budget: { maxTasks: 7 },
        tasks: [
          { key: 'A', executor: { kind: 'team', plan: five('A') } },
          { key: 'B', executor: { kind: 'team', plan: five('B') } },
        ],
      },
      worker.taskQueue,
    );
    const root = await handle.result();
    const [a, b] = await Promise.all(
      ['A', 'B'].map(async (k) => teamRunResult(await childHandle(`${handle.workflowId}/${k}#1`))),
    );
    const ran = (r: RunResult) => r.tasks.filter((t) => t.status === 'succeeded').length;
    // The shares: what the root had left after its two team tasks (5), split between the children starting at once.
    expect([a.budget.limits.maxTasks, b.budget.limits.maxTasks]).toEqual([2, 3]);
    expect([ran(a), ran(b)]).toEqual([2, 3]);
    expect([a.budget.used.tasks, b.budget.used.tasks]).toEqual([2, 3]);
    // Charged back once: the root's attempts are its own two and its children's five, within its limit.
    expect(root.budget.used.tasks).toBe(2 + a.budget.used.tasks + b.budget.used.tasks);
    expect(root.budget.used.tasks).toBeLessThanOrEqual(7);
    expect(root.budget.remaining.tasks).toBe(0);
    // Each child asked its parent for more once its share was spent, and the root, with nothing left, refused.
    for (const k of ['A', 'B']) {
      const refused = await eventsOf(await childHandle(`${handle.workflowId}/${k}#1`), 'budget:carve-refused');
      expect(refused.map((e) => e.message)).toEqual([expect.stringContaining('TEAM_TASK_BUDGET_EXCEEDED')]);
    }
  });

  it('a child whose share of maxTasks is spent asks its parent for more, and gets what a finished sibling left', async ({
    expect,
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const quiet = { awaitAdjudication: false, retry: { maxAttempts: 1 } };
    const dir = tempDir('tree-task-ask');
    const go = path.join(dir, 'go');
    // B: a task that waits until the test says go, then seven more: eight attempts, against a share of five.
    const b = {
      name: 'B',
      teammates: 4,
      ...quiet,
      tasks: [
        { key: 'w', executor: { kind: 'shell', command: `until [ -e '${go}' ]; do sleep 0.1; done` } },
        ...[1, 2, 3, 4, 5, 6, 7].map((n) => ({ key: `n${n}`, dependsOn: ['w'], executor: { kind: 'noop' } })),
      ],
    };
    const a = {
      name: 'A',
      teammates: 1,
      ...quiet,
      tasks: [1, 2].map((n) => ({ key: `m${n}`, executor: { kind: 'noop' } })),
    };
    const handle = await startRun(
      {
        name: 'tree-task-ask',
        teammates: 2,
        ...quiet,
        budget: { maxTasks: 12 },
        tasks: [
          { key: 'A', executor: { kind: 'team', plan: a } },
          { key: 'B', executor: { kind: 'team', plan: b } },
        ],
      },
      worker.taskQueue,
    );
    // A ends first (2 of its share of 5 used, charged back), so the root has 12 - 2 - 2 - 5 = 3 left for B.
    await waitFor('A to end', async () => (await handle.tasks({ status: 'succeeded' })).some((t) => t.key === 'A'));
    writeFileSync(go, '');
    const root = await handle.result();
    const child = await childHandle(`${handle.workflowId}/B#1`);
    const result = await teamRunResult(child);
    expect(result.status).toBe('succeeded');
    expect(result.tasks.filter((t) => t.status === 'succeeded')).toHaveLength(8);
    // B started with a share of five and was granted the three it lacked. It asks for at most as many as it has
    // teammates free (src/team/claims.ts), so one ask of 3, or 1 then 2 when its noops end in separate steps.
    const extended = (await eventsOf(child, 'budget:carve-extended')).map((e) => e.tasks as number);
    expect(extended.reduce((n, t) => n + t, 0)).toBe(3);
    expect(result.budget.limits.maxTasks).toBe(8);
    const granted = await eventsOf(handle, 'budget:child-carve-extended');
    expect(granted.map((e) => [e.key, e.tasks])).toEqual(extended.map((t) => ['B', t]));
    // The root counted every attempt in its tree once: its two, A's two and B's eight, all of its limit.
    expect(root.budget.used.tasks).toBe(12);
    expect(root.budget.remaining.tasks).toBe(0);
  });
});
