import { describe, expect, it } from 'vitest';
import { abortRunUpdate, activeClaimsQuery, eventsQuery, interruptTaskUpdate } from '../../src/workflows/messages';
import { TeamName, TeamRunStatus } from '../../src/workflows/search-attributes';
import { ISOLATE_EXECUTION_TIMEOUT_MS } from '../../src/worker/create-worker';
import { waitFor } from '../helpers/env';
import { historyAttempts, maxOverlap, overlapped } from '../helpers/history';
import { runForTest, workerForTest } from '../helpers/scenario';

const byKey = <T extends { key: string }>(items: T[]) => Object.fromEntries(items.map((t) => [t.key, t]));
const keyOf = (activityId: string) => activityId.slice(0, activityId.lastIndexOf('#'));

describe('teamRun schedules the graph on a real dev server', () => {
  it('runs a diamond with 3 teammates: each task once, each after its dependencies', async () => {
    const worker = await workerForTest();
    const handle = await runForTest(
      {
        name: 'diamond',
        teammates: 3,
        tasks: [
          { key: 'a', executor: { kind: 'noop' } },
          { key: 'b', dependsOn: ['a'], executor: { kind: 'sleep', ms: 300 } },
          { key: 'c', dependsOn: ['a'], executor: { kind: 'sleep', ms: 300 } },
          { key: 'd', dependsOn: ['b', 'c'], executor: { kind: 'noop' } },
        ],
      },
      worker,
    );
    const result = await handle.result();

    expect(result.status).toBe('succeeded');
    expect(result.stats).toMatchObject({ total: 4, succeeded: 4, failed: 0, skipped: 0 });
    expect(result.executions).toBe(4);
    expect(result.maxConcurrent).toBe(2);
    const attempts = byKey((await historyAttempts(handle)).map((a) => ({ ...a, key: keyOf(a.activityId) })));
    expect(Object.keys(attempts).sort()).toEqual(['a', 'b', 'c', 'd']);
    expect(
      Object.values(attempts)
        .map((a) => a.activityId)
        .sort(),
    ).toEqual(['a#1', 'b#1', 'c#1', 'd#1']);
    expect(Object.values(attempts).every((a) => a.activityType === 'runTask' && a.outcome === 'completed')).toBe(true);
    expect(attempts.b.startedAt!).toBeGreaterThanOrEqual(attempts.a.closedAt!);
    expect(attempts.c.startedAt!).toBeGreaterThanOrEqual(attempts.a.closedAt!);
    expect(attempts.d.startedAt!).toBeGreaterThanOrEqual(Math.max(attempts.b.closedAt!, attempts.c.closedAt!));
    expect(overlapped(attempts.b, attempts.c)).toBe(true);
    const tasks = byKey(result.tasks);
    expect(tasks.d.startedAt!).toBeGreaterThanOrEqual(Math.max(tasks.b.settledAt!, tasks.c.settledAt!));
  });

  it('never runs more than 2 of 4 independent tasks at once with 2 teammates', async () => {
    const worker = await workerForTest();
    const handle = await runForTest(
      {
        name: 'two-at-a-time',
        teammates: 2,
        tasks: ['t1', 't2', 't3', 't4'].map((key) => ({ key, executor: { kind: 'sleep', ms: 400 } })),
      },
      worker,
    );
    const result = await handle.result();

    expect(result.status).toBe('succeeded');
    expect(result.maxConcurrent).toBe(2);
    const attempts = await historyAttempts(handle);
    expect(attempts).toHaveLength(4);
    expect(maxOverlap(attempts)).toBe(2);
  });

  it('never runs overlapping scopes at once, and runs disjoint ones together', async () => {
    const worker = await workerForTest();
    const handle = await runForTest(
      {
        name: 'scopes',
        teammates: 3,
        tasks: [
          { key: 'docs', scope: ['docs/'], executor: { kind: 'sleep', ms: 500 } },
          { key: 'api-docs', scope: ['docs/api'], executor: { kind: 'sleep', ms: 500 } },
          { key: 'src', scope: ['src'], executor: { kind: 'sleep', ms: 500 } },
        ],
      },
      worker,
    );
    const result = await handle.result();

    expect(result.status).toBe('succeeded');
    const attempts = byKey((await historyAttempts(handle)).map((a) => ({ ...a, key: keyOf(a.activityId) })));
    expect(overlapped(attempts.docs, attempts['api-docs'])).toBe(false);
    expect(overlapped(attempts.docs, attempts.src)).toBe(true);
    expect(result.maxConcurrent).toBe(2);
  });

  it('hands the outputs of a task’s dependencies to it', async () => {
    const worker = await workerForTest();
    const handle = await runForTest(
      {
        name: 'outputs',
        tasks: [
          { key: 'count', executor: { kind: 'shell', command: `echo '::teamrun-output::{"files":3}'` } },
          { key: 'greet', executor: { kind: 'shell', command: `echo '::teamrun-output::"hello"'` } },
          { key: 'quiet', executor: { kind: 'noop' } },
          {
            key: 'report',
            dependsOn: ['count', 'greet', 'quiet'],
            executor: { kind: 'shell', command: `printf '::teamrun-output::%s\\n' "$TEAMRUN_INPUTS"` },
          },
        ],
      },
      worker,
    );
    const result = await handle.result();

    expect(result.status).toBe('succeeded');
    expect(byKey(result.tasks).report.output).toEqual({ count: { files: 3 }, greet: 'hello', quiet: null });
  });

  it('shows its progress in the UI: current details, search attributes, activity ids key#token', async () => {
    const worker = await workerForTest();
    const handle = await runForTest(
      {
        name: 'visible-run',
        teammates: 1,
        tasks: [
          { key: 'first', executor: { kind: 'noop' } },
          { key: 'slow', dependsOn: ['first'], executor: { kind: 'sleep', ms: 60_000 } },
        ],
      },
      worker,
    );
    const metadata = () => handle.query<{ currentDetails?: string }>('__temporal_workflow_metadata');

    const running = await waitFor('the slow task to be running', async () => {
      const details = (await metadata()).currentDetails ?? '';
      return details.includes('1/2 done') && details.includes('1 running') ? details : null;
    });
    expect(running).toContain('**visible-run** · running');
    expect(running).toContain('tasks: 1/2 done (1 succeeded, 0 failed, 0 skipped), 1 running');
    // Past a second the attempt tells its run it runs (attemptRunning): the details say so, without the
    // "started?" hint, though nothing else wakes the run meanwhile.
    const heard = await waitFor('the details to say slow#1 runs', async () => {
      const details = (await metadata()).currentDetails ?? '';
      return details.includes('`slow#1` (teammate-1, running)') ? details : null;
    });
    expect(heard).not.toContain('started?');
    // The summary is fixed at the start: it says what the run started with.
    expect(await (await handle.describe()).staticSummary()).toBe(
      'team run visible-run: started with 2 tasks, 1 teammate',
    );
    await waitFor(
      'TeamRunStatus=Running',
      async () => (await handle.describe()).typedSearchAttributes.get(TeamRunStatus) === 'Running',
    );

    // Cut the slow task short by aborting, to see the run close and the details follow.
    const [slow] = await handle.query(activeClaimsQuery);
    expect(slow).toMatchObject({ key: 'slow', fencingToken: 1 });
    await handle.executeUpdate(abortRunUpdate, { args: [{ reason: 'seen enough', requireAdjudication: false }] });
    const result = await handle.result();
    expect(result.status).toBe('aborted');

    const done = (await metadata()).currentDetails ?? '';
    expect(done).toContain('**visible-run** · aborted');
    expect(done).toContain('tasks: 2/2 done (1 succeeded, 1 failed, 0 skipped), 0 running');
    const description = await waitFor('TeamRunStatus=Aborted', async () => {
      const d = await handle.describe();
      return d.typedSearchAttributes.get(TeamRunStatus) === 'Aborted' ? d : null;
    });
    expect(description.typedSearchAttributes.get(TeamName)).toBe('visible-run');
    expect((await historyAttempts(handle)).map((a) => a.activityId)).toEqual(['first#1', 'slow#1']);
  });

  it('marks a succeeded run TeamRunStatus=Succeeded with its TeamName', async () => {
    const worker = await workerForTest();
    const handle = await runForTest(
      { name: 'sa-succeeded', tasks: [{ key: 'only', executor: { kind: 'noop' } }] },
      worker,
    );
    expect((await handle.result()).status).toBe('succeeded');
    const description = await waitFor('TeamRunStatus=Succeeded', async () => {
      const d = await handle.describe();
      return d.typedSearchAttributes.get(TeamRunStatus) === 'Succeeded' ? d : null;
    });
    expect(description.typedSearchAttributes.get(TeamName)).toBe('sa-succeeded');
    const details = (await handle.query<{ currentDetails?: string }>('__temporal_workflow_metadata')).currentDetails;
    expect(details).toContain('**sa-succeeded** · succeeded');
    expect(details).toContain('tasks: 1/1 done (1 succeeded, 0 failed, 0 skipped), 0 running');
  });

  it("gives a workflow activation 60 s before V8 stops it, not the SDK's 5 s, which aborts the worker process", async () => {
    // A machine far past its cores stretched one activation past 5 s, and Node could not stop it cleanly: "async
    // hook stack has become corrupted", the whole worker gone (src/worker/create-worker.ts). The SDK does not type
    // the option, so this shows it reached the worker.
    const { worker } = await workerForTest();
    expect(worker.options.isolateExecutionTimeoutMs).toBe(ISOLATE_EXECUTION_TIMEOUT_MS);
    expect(ISOLATE_EXECUTION_TIMEOUT_MS).toBeGreaterThanOrEqual(60_000);
  });

  it('interrupts an attempt that runs in a reused scope alone, and starts the next one in a scope never cancelled', async () => {
    // An attempt runs in its own cancellation scope; scopes of attempts that settled uncancelled are reused
    // (src/workflows/attempts.ts). Here `edit` runs in `prepare`'s scope; after its interrupt, `publish` must run.
    const worker = await workerForTest();
    const handle = await runForTest(
      {
        name: 'scope-reuse',
        teammates: 1,
        awaitAdjudication: false,
        tasks: [
          { key: 'prepare', executor: { kind: 'noop' } },
          { key: 'edit', dependsOn: ['prepare'], scope: ['ws'], executor: { kind: 'shell', command: 'sleep 600' } },
          { key: 'publish', dependsOn: ['prepare'], scope: ['ws'], executor: { kind: 'noop' } },
        ],
      },
      worker,
    );
    const claim = await waitFor('edit running', async () =>
      (await handle.query(activeClaimsQuery)).find((c) => c.key === 'edit'),
    );
    expect(
      await handle.executeUpdate(interruptTaskUpdate, {
        args: [{ key: 'edit', fencingToken: claim.fencingToken, requestId: 'take', actor: 'alice' }],
      }),
    ).toMatchObject({ ok: true });
    const result = await handle.result();
    expect(byKey(result.tasks).edit).toMatchObject({ status: 'adjudication' });
    expect(byKey(result.tasks).publish).toMatchObject({ status: 'succeeded', attempts: 1 });
    // An attempt started in a cancelled scope is never scheduled: it would show as not started, then be claimed again.
    const { events } = await handle.query(eventsQuery, { limit: 1_000 });
    expect(events.filter((e) => e.type === 'task:not-started')).toEqual([]);
    const outcomes = (await historyAttempts(handle)).map((a) => [keyOf(a.activityId), a.outcome]);
    expect(outcomes).toEqual([
      ['prepare', 'completed'],
      ['edit', 'cancelled'],
      ['publish', 'completed'],
    ]);
  });
});
