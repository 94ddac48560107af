import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { teamRunResult, type TeamRunHandle } from '../../src/client';
import { testClient, uniqueQueue } from '../helpers/env';
import { workerForSuite } from '../helpers/scenario';
import { teamrun } from './teamrun-cli';

/** A tree of plan files: root.yaml names teams/child.yaml (planFile), which names grand.yaml beside it (plan: a string). */
function writeTree(grand = 'name: grand\ntasks:\n  - { key: g1, executor: { kind: shell, command: "echo grand" } }\n') {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-team-files-'));
  mkdirSync(path.join(dir, 'teams'));
  writeFileSync(
    path.join(dir, 'root.yaml'),
    [
      'name: root',
      'tasks:',
      '  - { key: lead, executor: { kind: team, planFile: ./teams/child.yaml } }',
      '  - { key: solo, executor: { kind: noop } }',
    ].join('\n'),
  );
  writeFileSync(
    path.join(dir, 'teams', 'child.yaml'),
    ['name: child', 'tasks:', '  - { key: sub, executor: { kind: team, plan: grand.yaml } }'].join('\n'),
  );
  writeFileSync(path.join(dir, 'teams', 'grand.yaml'), grand);
  return dir;
}

describe('plan files for team tasks: validate and start resolve them before the run starts', () => {
  const worker = workerForSuite();

  it('validate resolves planFile and plan: <file> relative to the file naming them, and start runs the tree inline', async () => {
    const dir = writeTree();
    const root = path.join(dir, 'root.yaml');
    expect(await teamrun(['validate', root])).toMatchObject({
      code: 0,
      stdout: `${root}: ok (2 tasks, 2 teammates)\n`,
    });

    const id = uniqueQueue('team-files');
    const started = await teamrun(['start', root, '--id', id, '--wait', '--task-queue', worker.taskQueue]);
    expect(started.code, started.stdout + started.stderr).toBe(0);
    const client = await testClient();
    // The workflow saw inline plans only: its input holds the grandchild's plan, not a file name.
    const input = (await client.workflow.getHandle(id).fetchHistory()).events?.[0]
      ?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0]?.data;
    const plan = JSON.parse(Buffer.from(input!).toString('utf8')) as {
      tasks: Array<{ executor: { plan?: { tasks: Array<{ executor: Record<string, unknown> }> } } }>;
    };
    expect(plan.tasks[0].executor).not.toHaveProperty('planFile');
    expect(plan.tasks[0].executor.plan?.tasks[0].executor.plan).toMatchObject({ name: 'grand' });
    const grand = client.workflow.getHandle(`${id}/lead#1/sub#1`) as unknown as TeamRunHandle;
    const result = await teamRunResult(grand);
    expect(result.status).toBe('succeeded');
    expect(result.tasks[0]).toMatchObject({ key: 'g1', status: 'succeeded' });
  });

  it('a missing file, a file that is no plan, an invalid plan and files nested past maxTeamDepth name the task and the file', async () => {
    const dir = writeTree('name: grand\ntasks:\n  - { key: g1, executor: { kind: shell } }\n');
    const child = path.join(dir, 'teams', 'child.yaml');
    const grand = path.join(dir, 'teams', 'grand.yaml');
    // An invalid plan in a file: the problem's path, and the file and task it came from.
    const invalid = await teamrun(['validate', path.join(dir, 'root.yaml')]);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('tasks[0].executor.plan.tasks[0].executor.plan.tasks[0].executor.command');
    expect(invalid.stderr).toContain(`(in ${grand}, the plan of team task "sub")`);

    const missing = path.join(dir, 'missing.yaml');
    writeFileSync(missing, 'name: m\ntasks:\n  - { key: t, executor: { kind: team, planFile: nowhere.yaml } }\n');
    for (const command of ['validate', 'start']) {
      const refused = await teamrun([command, missing, '--task-queue', worker.taskQueue]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(
        `tasks[0].executor.planFile: team task "t" in ${missing}: plan file ${path.join(dir, 'nowhere.yaml')}: ENOENT`,
      );
    }

    writeFileSync(child, 'name: child\ntasks:\n  - { key: sub, executor: { kind: team, plan: grand.yaml } }\n');
    writeFileSync(grand, '- just\n- a list\n');
    const notPlan = await teamrun(['validate', path.join(dir, 'root.yaml')]);
    expect(notPlan.code).toBe(1);
    expect(notPlan.stderr).toContain(`team task "sub" in ${child}: plan file ${grand}: does not hold a plan`);

    // A file that names itself: resolved to maxTeamDepth (2 here), then refused, not read forever.
    const loop = path.join(dir, 'loop.yaml');
    writeFileSync(
      loop,
      'name: loop\nmaxTeamDepth: 2\ntasks:\n  - { key: again, executor: { kind: team, plan: loop.yaml } }\n',
    );
    const deep = await teamrun(['validate', loop]);
    expect(deep.code).toBe(1);
    expect(deep.stderr).toContain(
      `tasks[0].executor.plan.tasks[0].executor.plan: team task "again" in ${loop}: plan file ${loop}: a team run at ` +
        'level 3 is past maxTeamDepth 2',
    );
  });
});
