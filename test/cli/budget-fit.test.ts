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
