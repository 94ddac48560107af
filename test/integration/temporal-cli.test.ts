import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ApplicationFailure, WorkflowFailedError } from '@temporalio/client';
import { describe, expect, it, onTestFinished } from 'vitest';
import { teamRunHandle } from '../../src/client';
import { TeamName, TeamRunStatus } from '../../src/workflows/search-attributes';
import { temporalAddress, temporalBinary, testClient, uniqueQueue, waitFor } from '../helpers/env';
import { historyAttempts } from '../helpers/history';
import { workerForTest } from '../helpers/scenario';

/** Starts `teamRun` the way the README tells an operator to: the plain `temporal` CLI and a JSON file. */
async function startWithTemporalCli(plan: unknown, taskQueue: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-cli-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'plan.json');
  writeFileSync(file, JSON.stringify(plan));
  const workflowId = uniqueQueue('cli-run');
  const { stdout } = await promisify(execFile)(temporalBinary(), [
    'workflow',
    'start',
    '--address',
    temporalAddress(),
    '--type',
    'teamRun',
    '--task-queue',
    taskQueue,
    '--workflow-id',
    workflowId,
    '--input-file',
    file,
  ]);
  expect(stdout).toContain(workflowId);
  return teamRunHandle(await testClient(), workflowId);
}

describe('a plan started with the plain temporal CLI', () => {
  it('runs, and the run sets its own TeamName and TeamRunStatus', async () => {
    const worker = await workerForTest();
    const handle = await startWithTemporalCli(
      {
        name: 'from-the-cli',
        teammates: 2,
        tasks: [
          { key: 'a', executor: { kind: 'noop' } },
          { key: 'b', dependsOn: ['a'], executor: { kind: 'shell', command: 'echo "::teamrun-output::\\"b done\\""' } },
        ],
      },
      worker.taskQueue,
    );
    const result = await handle.result();

    expect(result.status).toBe('succeeded');
    expect(result.tasks.map((t) => [t.key, t.status, t.output ?? null])).toEqual([
      ['a', 'succeeded', null],
      ['b', 'succeeded', 'b done'],
    ]);
    const description = await waitFor('TeamRunStatus=Succeeded', async () => {
      const d = await handle.describe();
      return d.typedSearchAttributes.get(TeamRunStatus) === 'Succeeded' ? d : null;
    });
    expect(description.typedSearchAttributes.get(TeamName)).toBe('from-the-cli');
  });

  it('fails at once with a non-retryable InvalidTeamPlan failure listing every problem, and runs nothing', async () => {
    const worker = await workerForTest();
    const handle = await startWithTemporalCli(
      {
        name: 'broken plan!',
        tasks: [
          { key: 'build', executor: { kind: 'shell', command: 'make' } },
          { key: 'build', executor: { kind: 'noop' } },
          { key: 'test', dependsOn: ['bulid'], executor: { kind: 'noop' } },
          { key: 'x', dependsOn: ['y'], executor: { kind: 'noop' } },
          { key: 'y', dependsOn: ['x'], executor: { kind: 'sleep', ms: -1 } },
        ],
      },
      worker.taskQueue,
    );

    const failure = await handle.result().then(
      () => null,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    const cause = (failure as WorkflowFailedError).cause;
    expect(cause).toBeInstanceOf(ApplicationFailure);
    expect(cause).toMatchObject({ type: 'InvalidTeamPlan', nonRetryable: true });
    const message = (cause as ApplicationFailure).message;
    expect(message).toContain('name: name must be 1..100 chars of [A-Za-z0-9._-]');
    expect(message).toMatch(/tasks\[4\]\.executor\.ms: /);
    expect(message).toContain('tasks[1].key: duplicate task key "build" (first used at tasks[0])');
    expect(message).toContain('tasks[2].dependsOn[0]: unknown task "bulid" (did you mean "build"?)');
    expect(message).toContain('dependency cycle: x -> y -> x');
    expect((cause as ApplicationFailure).details?.[0]).toHaveLength(5);

    expect(await historyAttempts(handle)).toEqual([]);
    const { status } = await handle.describe();
    expect(status.name).toBe('FAILED');
  });
});
