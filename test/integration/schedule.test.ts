import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { teamRunHandle } from '../../src/client';
import { TeamName } from '../../src/workflows/search-attributes';
import { teamrun as runCli } from '../cli/teamrun-cli';
import { testClient, uniqueQueue, waitFor } from '../helpers/env';
import { workerForSuite } from '../helpers/scenario';
import { temporal } from './takeover-helpers';

/** A cron time that never comes during a test run, so only triggers start runs. */
const NEVER_DURING_TESTS = '0 0 1 1 *';

describe('scheduled team runs', () => {
  const worker = workerForSuite();
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-schedule-'));
  });

  const cli = (...args: string[]) => runCli(['--task-queue', worker.taskQueue, ...args]);
  const planFile = (name: string, plan: object) => {
    const file = path.join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify(plan));
    return file;
  };

  it('create -> trigger starts a team run that succeeds; a second trigger while it runs is skipped', async () => {
    const client = await testClient();
    const id = uniqueQueue('nightly');
    const team = uniqueQueue('sched-team');
    // The first task holds until the test opens the gate, so the run is surely running at the second trigger.
    const gate = path.join(dir, `${id}.gate`);
    const plan = planFile(id, {
      name: team,
      tasks: [
        {
          key: 'fetch',
          executor: { kind: 'shell', command: 'while [ ! -e "$GATE" ]; do sleep 0.1; done', env: { GATE: gate } },
        },
        { key: 'publish', dependsOn: ['fetch'], executor: { kind: 'noop' } },
      ],
    });

    const created = await cli('schedule', 'create', id, '--plan', plan, '--cron', NEVER_DURING_TESTS);
    expect(created.stderr).toBe('');
    expect(created.stdout).toContain(
      `created schedule ${id}: team ${team}, cron "${NEVER_DURING_TESTS}", overlap skip`,
    );

    const first = await cli('schedule', 'trigger', id);
    expect(first.stdout).toContain(`triggered schedule ${id} (overlap skip)`);
    const schedule = client.schedule.getHandle(id);
    const running = await waitFor(
      'the triggered run to be running',
      async () => (await schedule.describe()).info.runningActions[0],
    );
    const second = await cli('schedule', 'trigger', id);
    expect(second.code).toBe(0);
    await waitFor(
      'the second trigger to be skipped for overlap',
      async () => (await schedule.describe()).info.numActionsSkippedOverlap === 1,
    );
    writeFileSync(gate, '');

    // Temporal appends the scheduled time to the schedule's workflow id: every run has its own id.
    const workflowId = running.workflow.workflowId;
    expect(workflowId).toMatch(new RegExp(`^${id}-\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$`));
    const handle = teamRunHandle(client, workflowId);
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    expect(result.tasks.map((t) => [t.key, t.status])).toEqual([
      ['fetch', 'succeeded'],
      ['publish', 'succeeded'],
    ]);
    expect((await handle.describe()).typedSearchAttributes.get(TeamName)).toBe(team);

    const described = await cli('schedule', 'describe', id, '--json');
    const summary = JSON.parse(described.stdout);
    expect(summary).toMatchObject({
      id,
      team,
      overlap: 'skip',
      paused: false,
      actionsTaken: 1,
      skippedForOverlap: 1,
      createdBy: 'teamrun cli',
    });
    expect(summary.recent.map((r: { workflowId: string }) => r.workflowId)).toEqual([workflowId]);
    let runs = 0;
    for await (const _ of client.workflow.list({ query: `TemporalScheduledById = "${id}"` })) runs += 1;
    expect(runs).toBe(1);

    expect((await cli('schedule', 'delete', id)).stdout).toContain(`deleted schedule ${id}`);
    await expect(schedule.describe()).rejects.toThrow(/not found/);
  });

  it('refuses to create a schedule for an invalid plan, naming the problem', async () => {
    const id = uniqueQueue('broken');
    const plan = planFile(id, {
      name: 'broken',
      tasks: [
        { key: 'build', executor: { kind: 'noop' } },
        { key: 'ship', dependsOn: ['bulid'], executor: { kind: 'noop' } },
      ],
    });
    const created = await cli('schedule', 'create', id, '--plan', plan, '--every', '1h');
    expect(created.code).toBe(1);
    expect(created.stderr).toContain('tasks[1].dependsOn[0]');
    expect(created.stderr).toContain('did you mean "build"');
    const client = await testClient();
    await expect(client.schedule.getHandle(id).describe()).rejects.toThrow(/not found/);
  });

  it('lists a paused schedule and unpauses it', async () => {
    const client = await testClient();
    const id = uniqueQueue('hourly');
    const plan = planFile(id, { name: 'hourly-team', tasks: [{ key: 'a', executor: { kind: 'noop' } }] });
    expect(
      (await cli('schedule', 'create', id, '--plan', plan, '--every', '1h', '--paused', '--overlap', 'buffer-one'))
        .code,
    ).toBe(0);
    const listed = JSON.parse((await cli('schedule', 'list', '--json')).stdout) as Array<{
      id: string;
      paused: boolean;
      spec: string;
      team: string;
    }>;
    expect(listed.find((s) => s.id === id)).toMatchObject({ paused: true, spec: 'every 1h', team: 'hourly-team' });
    expect((await cli('schedule', 'unpause', id)).stdout).toContain(`unpaused schedule ${id}`);
    const schedule = client.schedule.getHandle(id);
    const described = await schedule.describe();
    expect(described.state.paused).toBe(false);
    expect(described.policies.overlap).toBe('BUFFER_ONE');
    await schedule.delete();
  });

  it('a paused schedule shows no next run, and one made with `temporal schedule create` shows the team of its plan', async () => {
    const id = uniqueQueue('made-by-temporal');
    const plan = { name: 'temporal-made-team', tasks: [{ key: 'a', executor: { kind: 'noop' } }] };
    await temporal(
      'schedule',
      'create',
      '--schedule-id',
      id,
      '--interval',
      '1h',
      '--type',
      'teamRun',
      '--task-queue',
      worker.taskQueue,
      '--workflow-id',
      `${id}-run`,
      '--input',
      JSON.stringify(plan),
      '--paused',
    );
    const listed = await waitFor('the schedule to be listed', async () => {
      const rows = JSON.parse((await cli('schedule', 'list', '--json')).stdout) as Array<{
        id: string;
        paused: boolean;
        team: string | null;
        nextRun: string | null;
      }>;
      return rows.find((s) => s.id === id);
    });
    expect(listed).toMatchObject({ paused: true, team: 'temporal-made-team', nextRun: null });
    const table = (await cli('schedule', 'list')).stdout.split('\n').find((line) => line.startsWith(id));
    expect(table).toMatch(new RegExp(`^${id}\\s+temporal-made-team\\s`));
    const described = await cli('schedule', 'describe', id);
    expect(described.stdout).toContain('team:            temporal-made-team (1 tasks)');
    expect(described.stdout).toContain('next runs:       - (paused)');
    await (await testClient()).schedule.getHandle(id).delete();
  });
});
