import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { teamrun as runCli } from '../cli/teamrun-cli';
import { temporalAddress, testClient, uniqueQueue } from '../helpers/env';

describe('schedule sync applies the schedules declared in temporal.yaml', () => {
  it('creates missing, leaves unchanged, updates changed and prunes only what sync created', async () => {
    const client = await testClient();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-sync-'));
    const taskQueue = uniqueQueue('sync');
    const id = (name: string) => `${taskQueue}-${name}`;
    const config = path.join(dir, 'temporal.yaml');
    const writePlan = (file: string, name: string, ms: number) =>
      writeFileSync(
        path.join(dir, file),
        stringify({ name, tasks: [{ key: 'work', executor: { kind: 'sleep', ms } }] }),
      );
    const declare = (schedules: object[]) =>
      writeFileSync(config, stringify({ connection: { address: temporalAddress(), taskQueue }, schedules }));
    const sync = (...flags: string[]) => runCli(['--config', config, 'schedule', 'sync', ...flags]);
    const exists = (scheduleId: string) =>
      client.schedule
        .getHandle(scheduleId)
        .describe()
        .then(
          () => true,
          () => false,
        );

    writePlan('docs.yaml', 'docs', 10);
    writePlan('index.yaml', 'index', 10);
    declare([
      { id: id('docs'), plan: 'docs.yaml', cron: '0 3 * * *' },
      { id: id('index'), plan: 'index.yaml', every: '2h', paused: true },
    ]);
    // A schedule made by hand with `teamrun schedule create` on the same queue: sync must never prune it.
    const manual = await runCli([
      '--config',
      config,
      'schedule',
      'create',
      id('manual'),
      '--plan',
      path.join(dir, 'docs.yaml'),
      '--every',
      '1d',
    ]);
    expect(manual.code).toBe(0);

    const dry = await sync('--dry-run');
    expect(dry.stdout).toContain(`would create ${id('docs')}: team docs, cron "0 3 * * *", overlap skip`);
    expect(dry.stdout).toContain(`would create ${id('index')}: team index, every 2h, overlap skip, paused`);
    expect(dry.stdout).toContain('dry run: 2 created, 0 updated, 0 deleted, 0 unchanged');
    expect(await exists(id('docs'))).toBe(false);

    const first = await sync();
    expect(first.stdout).toContain('2 created, 0 updated, 0 deleted, 0 unchanged');
    expect((await client.schedule.getHandle(id('index')).describe()).state.paused).toBe(true);

    writePlan('docs.yaml', 'docs', 20);
    writePlan('report.yaml', 'report', 10);
    declare([
      { id: id('docs'), plan: 'docs.yaml', cron: '30 4 * * *', overlap: 'buffer-one' },
      { id: id('report'), plan: 'report.yaml', every: '6h' },
    ]);
    const second = await sync('--prune');
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(`updated      ${id('docs')}: team docs, cron "30 4 * * *", overlap buffer-one`);
    expect(second.stdout).toContain(`created      ${id('report')}`);
    expect(second.stdout).toContain(`deleted      ${id('index')}: created by schedule sync and no longer declared`);
    expect(second.stdout).toContain('1 created, 1 updated, 1 deleted, 0 unchanged');
    expect(second.stdout).not.toContain(id('manual'));

    const docs = await client.schedule.getHandle(id('docs')).describe();
    expect(docs.policies.overlap).toBe('BUFFER_ONE');
    expect(docs.spec.calendars?.[0]).toMatchObject({
      hour: [{ start: 4, end: 4, step: 1 }],
      minute: [{ start: 30, end: 30, step: 1 }],
    });
    const plan = (docs.action as { args: Array<{ tasks: Array<{ executor: { ms: number } }> }> }).args[0];
    expect(plan.tasks[0].executor.ms).toBe(20);
    expect(await exists(id('index'))).toBe(false);
    expect(await exists(id('manual'))).toBe(true);

    const third = await sync('--prune');
    expect(third.stdout).toContain('0 created, 0 updated, 0 deleted, 2 unchanged');

    for (const name of ['docs', 'report', 'manual']) await client.schedule.getHandle(id(name)).delete();
  });
});
