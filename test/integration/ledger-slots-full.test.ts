import { describe, expect, it } from 'vitest';
import { adjudicationsQuery } from '../../src/workflows/messages';
import { ledgerStatus } from '../../src/ledger/client';
import type { TeamPlanInput } from '../../src/plan/schema';
import type { RunResult } from '../../src/contract/result';
import { startRun, testClient, testConfig } from '../helpers/env';
import { ledgerForTest, workerForTest } from '../helpers/scenario';

/** What `teamrun reserve --tokens 7` does, then a usage line of 7 if granted. */
const RESERVE_AND_SPEND =
  `[ "$(curl -s -o /dev/null -w '%{http_code}' --unix-socket "$TEAMRUN_ATTEMPT_SOCKET" ` +
  `-H "Authorization: Bearer $TEAMRUN_ATTEMPT_SECRET" -d '{"tokens":7}' http://gateway/reserve)" = 200 ] && ` +
  `echo '::teamrun-usage::{"outputTokens":7}'`;

/** Tasks that hold nothing up front: each attempt's 7 tokens are an extension its run must ask for. */
const reserving = (keys: string[]) =>
  keys.map((key) => ({
    key,
    estimate: { tokens: 0, usd: 0 },
    executor: { kind: 'shell', command: RESERVE_AND_SPEND },
  }));

/**
 * A worker with 2 slots running 2 attempts has no slot left for what those attempts wait for. Before the control
 * queue (plan/lease-pace.ts controlQueueName) the ledger's extension and a child's ask of its parent were activities on
 * the run's own queue: the ledger's waited its 30 s for a slot and the attempts were refused `ledger-unreachable`; the
 * child's run did not end within the test's 120 s.
 */
describe('a worker whose every slot runs an attempt', () => {
  it("still asks its run's ledger for the attempts' extensions: every attempt granted, none refused", async ({
    onTestFinished,
  }) => {
    const worker = await workerForTest({ config: testConfig({ maxConcurrentAttempts: 2 }) }, onTestFinished);
    const ledger = await ledgerForTest('slots-full', { maxTokens: 1_000 }, worker.taskQueue, onTestFinished);
    const plan: TeamPlanInput = {
      name: 'slots-full',
      teammates: 2,
      lease: { ttlMs: 60_000 },
      awaitAdjudication: false,
      budget: { ledger },
      tasks: reserving(['a', 'b', 'c', 'd']),
    };
    const handle = await startRun(plan, worker.taskQueue);
    const result = await handle.result();
    expect((await handle.query(adjudicationsQuery)).map((a) => `${a.code} ${a.reason}`)).toEqual([]);
    expect(result.status).toBe('succeeded');
    expect(result.budget.used.tokens).toBe(28);
    expect((await ledgerStatus(await testClient(), ledger)).used.tokens).toBe(28);
  });

  it("still asks a child's parent for what the child lacks: both attempts granted", async ({ onTestFinished }) => {
    const worker = await workerForTest({ config: testConfig({ maxConcurrentAttempts: 2 }) }, onTestFinished);
    // The child's own 5 tokens cover neither attempt's 7: each asks the root for what the child lacks, both running.
    // Both start together and ask at once. Asks at once each counted the child's same 5 free tokens and asked the
    // root for 2, and the second grant was refused (ci79, under load): they go one at a time now.
    const tasks = reserving(['a', 'b']).map((t) => ({
      ...t,
      executor: { ...t.executor, command: `sleep 1; ${RESERVE_AND_SPEND}` },
    }));
    // A refused ask fails its task at once (no human is asked): the run ends and says why, instead of the test timing out.
    const child: TeamPlanInput = {
      name: 'child',
      teammates: 2,
      awaitAdjudication: false,
      budget: { maxTokens: 5 },
      tasks,
    };
    const handle = await startRun(
      {
        name: 'slots-full-tree',
        lease: { ttlMs: 60_000 },
        awaitAdjudication: false,
        budget: { maxTokens: 1_000 },
        tasks: [{ key: 'team', executor: { kind: 'team', plan: child } }],
      },
      worker.taskQueue,
    );
    const result = await handle.result();
    const ended = result.tasks.map((t) => `${t.key} ${t.status} ${JSON.stringify(t.lastError ?? null)}`);
    expect(result.status, ended.join('\n')).toBe('succeeded');
    // What the child's attempts did says why when the charge is off.
    const childId = result.tasks[0].child;
    const childResult = childId
      ? ((await (await testClient()).workflow.getHandle(childId).result()) as RunResult)
      : null;
    const childTasks = childResult?.tasks ?? [];
    const attempts = childTasks.map((t) => `${t.key}: ${t.attempts} attempt(s), ${JSON.stringify(t.lastError)}`);
    const said = [
      `the team task took ${result.tasks[0].attempts} attempt(s); its last child charged itself ${childResult?.budget.used.tokens}`,
      ...attempts,
    ].join('\n');
    expect(result.budget.used.tokens, said).toBe(14);
  });
});
