import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { temporalAddress, testClient, uniqueQueue } from '../helpers/env';
import { teamrun } from './teamrun-cli';

/** A tree whose team task carves more than its root has, and a task whose estimate is past its run's dollars. */
const PLAN = [
  'name: over',
  'budget: { maxTokens: 150000, maxUsd: 1 }',
  'tasks:',
  '  - key: guide',
  '    executor:',
  '      kind: team',
  '      plan: { name: g, budget: { maxTokens: 200000 }, tasks: [{ key: a, executor: { kind: noop } }] }',
  '  - { key: big, estimate: { usd: 1.5 }, executor: { kind: noop } }',
  '  - { key: fits, estimate: { tokens: 150000, usd: 1 }, executor: { kind: noop } }',
].join('\n');

describe('a task that reserves more than its run has before it starts', () => {
  it('validate, start, schedule create and schedule sync refuse the plan, naming the task, the field and both figures; nothing is started', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-budget-fit-'));
    const file = path.join(dir, 'over.yaml');
    writeFileSync(file, PLAN);
    const id = uniqueQueue('budget-fit');
    // The same plan declared in a config for `schedule sync`.
    const config = path.join(dir, 'teamrun.yaml');
    const schedules = [{ id: `${id}-synced`, plan: 'over.yaml', every: '1h' }];
    writeFileSync(config, stringify({ connection: { address: temporalAddress(), taskQueue: id }, schedules }));
    // `schedule create` and `schedule sync` make the same checks: such a schedule would stop budget_stopped at every run.
    for (const command of [
      ['validate', file],
      ['start', '--id', id, file],
      ['schedule', 'create', id, '--every', '1h', '--plan', file],
      ['--config', config, 'schedule', 'sync'],
    ]) {
      const refused = await teamrun(command);
      expect(refused.code, refused.stdout + refused.stderr).toBe(1);
      expect(refused.stderr).toContain(
        command.includes('sync') ? `schedules[0] (${id}-synced): plan ${file}:` : `${file}: 2 problem(s)`,
      );
      expect(refused.stderr).toContain(
        'tasks[0].executor.plan.budget.maxTokens: task "guide" reserves 200000 tokens (its team plan\'s budget) ' +
          "before it starts, more than the run's budget.maxTokens 150000: it could never start",
      );
      expect(refused.stderr).toContain(
        'tasks[1].estimate.usd: task "big" reserves $1.5 (its estimate) before it starts, more than the run\'s ' +
          'budget.maxUsd $1',
      );
      expect(refused.stderr).not.toContain('"fits"');
    }
    const client = await testClient();
    await expect(client.workflow.getHandle(id).describe()).rejects.toThrow(/not found/i);
    await expect(client.schedule.getHandle(id).describe()).rejects.toThrow(/not found/i);
    await expect(client.schedule.getHandle(`${id}-synced`).describe()).rejects.toThrow(/not found/i);
  });
});

describe('tasks that hold a fair share of the budget and are charged all of it when lost', () => {
  /** Two teammates under 10,000 tokens and $1: a task without an amount of its own holds half of each. */
  const plan = (budget: Record<string, number> | null) =>
    [
      'name: shares',
      'teammates: 2',
      ...(budget ? [`budget: ${JSON.stringify(budget)}`] : []),
      'tasks:',
      '  - { key: bare-shell, executor: { kind: shell, command: "true" } }',
      '  - { key: tokens-only, estimate: { tokens: 10 }, executor: { kind: shell, command: "true" } }',
      '  - { key: said-nothing, estimate: { tokens: 0, usd: 0 }, executor: { kind: shell, command: "true" } }',
      '  - { key: nap, executor: { kind: sleep, ms: 10 } }',
      '  - { key: idle, executor: { kind: noop } }',
    ].join('\n');
  const note =
    'note: 2 task(s) with no estimate for a limit the plan sets hold a fair share of the budget while they run ' +
    '(bare-shell, tokens-only): what remains over the free teammates when one starts, 5,000 tokens and $0.50 on a ' +
    'fresh budget (maxTokens 10,000, maxUsd 1 over 2 teammate(s)), all that remains when it starts alone. An ' +
    'attempt lost with its worker (kill -9, OOM) is charged all it holds';

  it('validate and start name them, with what each holds, and still accept the plan', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-fair-share-'));
    const file = path.join(dir, 'shares.yaml');
    writeFileSync(file, plan({ maxTokens: 10_000, maxUsd: 1 }));
    const checked = await teamrun(['validate', file]);
    expect(checked.code, checked.stderr).toBe(0);
    expect(checked.stdout).toContain('shares.yaml: ok (5 tasks, 2 teammates)');
    expect(checked.stderr).toContain(note);
    expect(checked.stderr).toContain('Give each an `estimate` of what it spends ({ tokens: 0, usd: 0 }');
    // Started on a queue nobody polls: the note is the same; the run is then ended.
    const id = uniqueQueue('fair-share');
    const started = await teamrun(['start', '--id', id, '--task-queue', id, file]);
    expect(started.code, started.stderr).toBe(0);
    expect(started.stderr).toContain(note);
    await (await testClient()).workflow.getHandle(id).terminate('test done');
    // Without a token or dollar limit nothing is held, and nothing is said.
    writeFileSync(file, plan(null));
    const unbounded = await teamrun(['validate', file]);
    expect(unbounded.code).toBe(0);
    expect(unbounded.stderr).not.toContain('fair share');
    // Under a token limit alone, tokens-only brings its own amount: only bare-shell is named.
    writeFileSync(file, plan({ maxTokens: 10_000 }));
    const tokens = await teamrun(['validate', file]);
    expect(tokens.stderr).toContain(
      'note: 1 task(s) with no estimate for a limit the plan sets hold a fair share of the budget while they run ' +
        '(bare-shell): what remains over the free teammates when one starts, 5,000 tokens on a fresh budget ' +
        '(maxTokens 10,000 over 2 teammate(s))',
    );
  });

  it('start --json, schedule create and sync say it too; past five tasks the rest are counted; child plans are looked into', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-fair-share-'));
    const file = path.join(dir, 'nested.yaml');
    const shell = (key: string) => `  - { key: ${key}, executor: { kind: shell, command: "true" } }`;
    writeFileSync(
      file,
      [
        'name: nested',
        'teammates: 2',
        'budget: { maxTokens: 10000 }',
        'tasks:',
        ...['s1', 's2', 's3', 's4', 's5', 's6', 's7'].map(shell),
        // A team task with an estimate: its child run's limit is that carve, and its own shell tasks share it.
        '  - key: squad',
        '    estimate: { tokens: 4000 }',
        '    executor:',
        '      kind: team',
        '      plan:',
        '        name: squad',
        '        tasks:',
        '          - { key: inner, executor: { kind: shell, command: "true" } }',
        '          - { key: quiet, estimate: { tokens: 0 }, executor: { kind: shell, command: "true" } }',
        '          - key: deeper',
        '            executor:',
        '              kind: team',
        '              plan: { name: deeper, tasks: [{ key: deepest, executor: { kind: shell, command: "true" } }] }',
      ].join('\n'),
    );
    const note =
      'note: 7 task(s) with no estimate for a limit the plan sets hold a fair share of the budget while they run ' +
      '(s1, s2, s3, s4, s5 and 2 more): what remains over the free teammates when one starts, 5,000 tokens on a ' +
      'fresh budget (maxTokens 10,000 over 2 teammate(s)), all that remains when it starts alone; 2 task(s) of team ' +
      "tasks' child plans (squad/inner, squad/deeper/deepest) hold a fair share of their child run's budget (its " +
      'carve, or the limits its plan sets) the same way. An attempt lost with its worker';
    expect((await teamrun(['validate', file])).stderr).toContain(note);
    // --json without --wait: the JSON alone on stdout, the note on stderr.
    const id = uniqueQueue('fair-share-json');
    const started = await teamrun(['start', '--json', '--id', id, '--task-queue', id, file]);
    expect(started.code, started.stderr).toBe(0);
    expect(JSON.parse(started.stdout)).toMatchObject({ workflowId: id });
    expect(started.stderr).toContain(note);
    // And the other notes start prints: nobody polls this queue.
    expect(started.stderr).toContain(`note: no worker polls task queue "${id}" yet`);
    const client = await testClient();
    await client.workflow.getHandle(id).terminate('test done');
    // Every run a schedule starts holds them so: said when it is created.
    const created = await teamrun(['schedule', 'create', id, '--every', '1h', '--paused', '--plan', file]);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toContain(note);
    await client.schedule.getHandle(id).delete();
    // Declared in a config, on the sync that creates it; a sync that changes nothing says nothing.
    const config = path.join(dir, 'teamrun.yaml');
    const schedules = [{ id: `${id}-synced`, plan: 'nested.yaml', every: '1h', paused: true }];
    writeFileSync(config, stringify({ connection: { address: temporalAddress(), taskQueue: id }, schedules }));
    const synced = await teamrun(['--config', config, 'schedule', 'sync']);
    expect(synced.code, synced.stderr).toBe(0);
    expect(synced.stderr).toContain(`note: schedule ${id}-synced: 7 task(s) with no estimate`);
    const again = await teamrun(['--config', config, 'schedule', 'sync']);
    expect(again.stdout).toContain('1 unchanged');
    expect(again.stderr).not.toContain('fair share');
    await client.schedule.getHandle(`${id}-synced`).delete();
  });
});
