import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'vitest';
import { teamRunResult } from '../../src/client';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startRun, temporalAddress, testClient, uniqueQueue } from '../helpers/env';
import { mcpStdioClient } from '../helpers/mcp-client';
import { eventsQuery, statusQuery } from '../../src/workflows/messages';
import { workerForTest } from '../helpers/scenario';
import { spawnTeamrun, teamrun, waitForOutput } from './teamrun-cli';

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
    // Events and status carry the path of the run they happen in: a grandchild's is root/A/B, a root has none.
    const client = await testClient();
    const page = async (id: string) => client.workflow.getHandle(id).query(eventsQuery, { limit: 1 });
    expect((await page(bId)).path).toBe(`${root}/A/B`);
    expect((await page(root)).path).toBeUndefined();
    expect((await client.workflow.getHandle(aId).query(statusQuery)).path).toBe(`${root}/A`);
    // The Web UI's current details link the child run down, and the child's link its parent up.
    const details = async (id: string) =>
      (
        await (
          await testClient()
        ).workflow
          .getHandle(id)
          .query<{ currentDetails?: string }>('__temporal_workflow_metadata')
      ).currentDetails ?? '';
    expect(await details(root)).toContain(
      `- child runs (team tasks): \`A\` succeeded [${aId.replace('#', '\\#')}](/namespaces/default/workflows/${encodeURIComponent(aId)})`,
    );
    expect(await details(aId)).toContain(
      `- tree: \`${root}/A\`, parent run [${root}](/namespaces/default/workflows/${encodeURIComponent(root)})`,
    );

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

    // `watch` ends with the same tree under the run's summary.
    const watched = await cli('watch', root);
    expect(watched.code).toBe(0);
    expect(watched.stdout).toContain('\ntree of teams:\n');
    expect(watched.stdout).toMatch(new RegExp(`\n {5}└─ B \\[succeeded\\]  ${root}/A/B  succeeded  2/2 done`));

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

    // The report nests each child's report under its team task: text indented, HTML a linked section each.
    const text = await cli('report', root);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`\n    ── team task A: child run ${root}/A ──\n    run ${aId}`);
    expect(text.stdout).toContain(`\n        ── team task B: child run ${root}/A/B ──\n        run ${bId}`);
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'tree-report-')), 'report.html');
    expect((await cli('report', root, '--html', file)).code).toBe(0);
    const html = readFileSync(file, 'utf8');
    const anchor = (p: string) => `child-${p.replace(/[^A-Za-z0-9._-]/g, '_')}`;
    for (const p of [`${root}/A`, `${root}/A/B`]) {
      expect(html).toContain(`<a href="#${anchor(p)}">${p}</a>`);
      expect(html).toContain(`<section class="child-run" id="${anchor(p)}"`);
    }
    // One script: the root page's own.
    expect(html.match(/<script>/g)).toHaveLength(1);

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
    // Eight CLI processes, each started through tsx: minutes on a loaded machine.
  }, 600_000);

  it('`watch` shows the counts of each level below the run while the tree runs, then the tree', async ({
    expect,
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const gate = path.join(mkdtempSync(path.join(os.tmpdir(), 'tree-watch-')), 'open');
    const held = {
      key: 'held',
      executor: { kind: 'shell', command: 'while [ ! -e "$GATE" ]; do sleep 0.1; done', env: { GATE: gate } },
    };
    const handle = await startRun(
      {
        name: uniqueQueue('tree-watch'),
        awaitAdjudication: false,
        tasks: [team('A', { name: 'level-1', tasks: [held, noop('a1')] })],
      },
      worker.taskQueue,
    );
    const watch = spawnTeamrun(['watch', handle.workflowId, '--address', temporalAddress()]);
    onTestFinished(() => void watch.child.kill());
    // While the child works: its level's counts, one task done and one running.
    await waitForOutput(watch, 'tree level 1: 1 run(s), 0 team task(s)  1/2 done · 1 succeeded · 0 failed');
    expect(watch.stderr()).toMatch(/tree level 1: 1 run\(s\), 0 team task\(s\)  1\/2 done .* 1 running/);
    writeFileSync(gate, '');
    const { code, stdout } = await watch.exited;
    expect(code).toBe(0);
    expect(stdout).toMatch(new RegExp(`\n {2}└─ A \\[succeeded\\]  ${handle.workflowId}/A  succeeded  2/2 done`));
  }, 180_000);
});

describe('one tree everywhere: the MCP door', () => {
  it('run_status takes a tree path and returns the tree, each child with its runId and path', async ({
    expect,
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const handle = await startRun(threeLevels(uniqueQueue('tree-mcp')), worker.taskQueue);
    expect((await teamRunResult(handle)).status).toBe('succeeded');
    const root = handle.workflowId;
    const mcp = await mcpStdioClient(worker.taskQueue, onTestFinished);
    const call = async (args: Record<string, unknown>) =>
      (await mcp.callTool({ name: 'run_status', arguments: args }, undefined, { timeout: 60_000 })) as CallToolResult;

    const top = (await call({ runId: root })).structuredContent as {
      tree: { path: string; teamTasks: number; children: Array<{ workflowId: string; path: string; key: string }> };
    };
    expect(top.tree.teamTasks).toBe(1);
    expect(top.tree.children[0]).toMatchObject({ key: 'A', workflowId: `${root}/A#1`, path: `${root}/A` });
    expect(top.tree.children[0]).toMatchObject({ children: [{ key: 'B', path: `${root}/A/B` }] });

    const leaf = (await call({ path: `${root}/A/B` })).structuredContent as {
      runId: string;
      state: string;
      stats: { total: number };
    };
    expect(leaf).toMatchObject({ runId: `${root}/A#1/B#1`, state: 'succeeded', stats: { total: 2 } });
    expect(leaf).not.toHaveProperty('tree');

    const wrong = await call({ path: `${root}/A/nope` });
    expect(wrong.isError).toBe(true);
    expect((wrong.content[0] as { text: string }).text).toMatch(/^not_found: path .*: "nope" in run /);
    const both = await call({ runId: root, path: `${root}/A` });
    expect(both.isError).toBe(true);
  }, 600_000);
});
