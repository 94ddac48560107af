import { describe, it } from 'vitest';
import { teamRunResult } from '../../src/client';
import { startRun, temporalAddress, uniqueQueue } from '../helpers/env';
import { workerForTest } from '../helpers/scenario';
import { teamrun } from './teamrun-cli';

const cli = (...args: string[]) => teamrun([...args, '--address', temporalAddress()], {}, 90_000);
const noop = (key: string) => ({ key, executor: { kind: 'noop' } });
const team = (key: string, plan: Record<string, unknown>) => ({ key, executor: { kind: 'team', plan } });

/** root -> A (team) -> B (team) -> b1, b2; A also runs a1; the root also runs r. */
const threeLevels = (name: string) => ({
  name,
  awaitAdjudication: false,
  tasks: [
    noop('r'),
    team('A', {
      name: 'level-1',
      tasks: [noop('a1'), team('B', { name: 'level-2', tasks: [noop('b1'), noop('b2')] })],
    }),
  ],
});

describe.concurrent('one tree everywhere: status, tasks --tree and report on a three-level tree', () => {
  it('`status` shows the tree with counts per level, a child is named by its path, `tasks --tree` nests', async ({
    expect,
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const handle = await startRun(threeLevels(uniqueQueue('tree-views')), worker.taskQueue);
    const result = await teamRunResult(handle);
    expect(result.status).toBe('succeeded');
    const root = handle.workflowId;
    const aId = `${root}/A#1`;
    const bId = `${aId}/B#1`;
    // The team task's view names its child run.
    expect(result.tasks.find((t) => t.key === 'A')?.child).toBe(aId);
    expect(result.tasks.find((t) => t.key === 'r')?.child).toBeUndefined();

    const status = await cli('status', root);
    expect(status.code).toBe(0);
    const lines = status.stdout.split('\n');
    const at = lines.findIndex((l) => l === 'tree of teams:');
    expect(at).toBeGreaterThan(0);
    // Each level indented under its team task, with its path, state and counts.
    expect(lines[at + 1]).toMatch(new RegExp(`^  ${root}  succeeded  2/2 done · 2 succeeded`));
    expect(lines[at + 2]).toMatch(new RegExp(`^  └─ A \\[succeeded\\]  ${root}/A  succeeded  2/2 done`));
    expect(lines[at + 2]).toContain(aId);
    expect(lines[at + 3]).toMatch(new RegExp(`^     └─ B \\[succeeded\\]  ${root}/A/B  succeeded  2/2 done`));
    expect(status.stdout).toContain('level 0: 1 run(s), 1 team task(s)  2/2 done');
    expect(status.stdout).toContain('level 1: 1 run(s), 1 team task(s)  2/2 done');
    expect(status.stdout).toContain('level 2: 1 run(s), 0 team task(s)  2/2 done');

    // Bounded: --depth 1 reads the child, not the grandchild, and says the grandchild is there.
    const shallow = await cli('status', root, '--depth', '1');
    expect(shallow.stdout).toContain(`${root}/A  succeeded`);
    expect(shallow.stdout).not.toContain(`${root}/A/B  succeeded`);
    expect(shallow.stdout).toContain('… and 1 more team task(s)');

    // A child by its path: the grandchild's own status.
    const byPath = await cli('status', `${root}/A/B`, '--json');
    expect(byPath.code).toBe(0);
    const overview = JSON.parse(byPath.stdout) as { workflowId: string; stats: { total: number } };
    expect(overview.workflowId).toBe(bId);
    expect(overview.stats.total).toBe(2);
    const unknown = await cli('status', `${root}/A/nope`);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('"nope"');

    const tree = await cli('tasks', root, '--tree');
    expect(tree.code).toBe(0);
    const rows = tree.stdout.trim().split('\n');
    expect(rows).toEqual([
      expect.stringMatching(/^r  succeeded  attempts 1  token 1/),
      expect.stringMatching(new RegExp(`^A  succeeded  attempts 1  token 1.*  -> ${aId.replace(/[#/]/g, '.')}$`)),
      expect.stringMatching(/^ {4}a1  succeeded/),
      expect.stringMatching(new RegExp(`^ {4}B  succeeded.*  -> ${bId.replace(/[#/]/g, '.')}$`)),
      expect.stringMatching(/^ {8}b1  succeeded/),
      expect.stringMatching(/^ {8}b2  succeeded/),
    ]);
  });
});
