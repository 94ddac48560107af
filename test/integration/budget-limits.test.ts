import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { eventsQuery } from '../../src/workflows/messages';
import { startRun, temporalAddress, temporalBinary, uniqueQueue, waitFor } from '../helpers/env';
import { workerForTest } from '../helpers/scenario';

const run = promisify(execFile);
const dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-budget-limits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A shell task that leaves one line in `file` per execution, so executions are counted by their effect. */
function counted(file: string, then = 'true') {
  return { kind: 'shell', command: `echo "$TEAMRUN_TASK_KEY#$TEAMRUN_FENCING_TOKEN" >> '${file}'; ${then}` };
}

function executionsIn(file: string): string[] {
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : [];
}

describe.concurrent('task-count budgets on a real dev server', () => {
  it('maxTasks 3 with 16 teammates and 10 tasks: exactly 3 executions, then budget_stopped (max-tasks)', async ({
    onTestFinished,
  }) => {
    const file = path.join(dir, 'max-tasks');
    const worker = await workerForTest({}, onTestFinished);
    const handle = await startRun(
      {
        name: 'max-tasks',
        teammates: 16,
        lease: { ttlMs: 15_000, heartbeatEveryMs: 1_000 },
        budget: { maxTasks: 3 },
        tasks: Array.from({ length: 10 }, (_, i) => ({ key: `t${i}`, executor: counted(file) })),
      },
      worker.taskQueue,
    );
    const result = await handle.result();
    expect(executionsIn(file)).toHaveLength(3);
    expect(result).toMatchObject({ status: 'budget_stopped', budgetReason: 'max-tasks', executions: 3 });
    expect(result.stats).toMatchObject({ succeeded: 3, skipped: 7 });
    expect(result.budget).toMatchObject({
      used: { tasks: 3 },
      remaining: { tasks: 0 },
      stopped: true,
      reason: 'max-tasks',
    });
    const { events } = await handle.query(eventsQuery, { limit: 1_000 });
    expect(events.filter((e) => e.type === 'run:budget-exhausted')).toMatchObject([{ reason: 'max-tasks' }]);
  });

  it('a doomed retry loop (maxAttempts 100) stops after maxTasks 4 executions', async ({ onTestFinished }) => {
    const file = path.join(dir, 'doomed');
    const worker = await workerForTest({}, onTestFinished);
    const handle = await startRun(
      {
        name: 'doomed-retry',
        teammates: 4,
        lease: { ttlMs: 15_000, heartbeatEveryMs: 1_000 },
        retry: { maxAttempts: 100, backoffMs: 10 },
        budget: { maxTasks: 4 },
        tasks: [{ key: 'doomed', executor: counted(file, 'exit 1') }],
      },
      worker.taskQueue,
    );
    const result = await handle.result();
    expect(executionsIn(file)).toEqual(['doomed#1', 'doomed#2', 'doomed#3', 'doomed#4']);
    expect(result).toMatchObject({ status: 'budget_stopped', budgetReason: 'max-tasks', executions: 4 });
    expect(result.tasks[0]).toMatchObject({
      key: 'doomed',
      attempts: 4,
      status: 'skipped',
      skipReason: 'budget_stopped: max-tasks',
    });
    expect(result.tasks[0].lastError).toContain('exit code 1');
  });

  it('a budget-stopped run is found by `temporal workflow list --query TeamRunBudgetStopped=true`', async ({
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const team = uniqueQueue('searchable');
    const tasks = [
      { key: 'a', executor: { kind: 'noop' } },
      { key: 'b', executor: { kind: 'noop' } },
    ];
    const stopped = await startRun({ name: team, budget: { maxTasks: 1 }, tasks }, worker.taskQueue);
    const finished = await startRun({ name: team, budget: { maxTasks: 2 }, tasks }, worker.taskQueue);
    expect((await stopped.result()).status).toBe('budget_stopped');
    expect((await finished.result()).status).toBe('succeeded');

    const list = async (query: string) => {
      const { stdout } = await run(temporalBinary(), [
        'workflow',
        'list',
        '--address',
        temporalAddress(),
        '--query',
        query,
        '--output',
        'json',
      ]);
      return (JSON.parse(stdout || '[]') as Array<{ execution: { workflowId: string } }>).map(
        (w) => w.execution.workflowId,
      );
    };
    // Visibility is eventually consistent: the closed runs appear a moment after they close.
    const matched = await waitFor('the budget-stopped run in visibility', async () => {
      const all = await list(`TeamName = '${team}'`);
      return all.length === 2 && (await list(`TeamName = '${team}' AND TeamRunBudgetStopped = true`));
    });
    expect(matched).toEqual([stopped.workflowId]);
    expect(await list(`TeamName = '${team}' AND TeamRunStatus = 'BudgetStopped'`)).toEqual([stopped.workflowId]);
  });
});
