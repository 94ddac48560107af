import { describe, it } from 'vitest';
import { teamRunResult } from '../../src/client';
import { startRun, temporalAddress, uniqueQueue, waitFor } from '../helpers/env';
import { workerForTest } from '../helpers/scenario';
import { teamrun } from './teamrun-cli';

const cli = (...args: string[]) => teamrun([...args, '--address', temporalAddress()], {}, 60_000);

/** Prints 200 numbered lines (a few KiB) to stdout and a line to stderr, then succeeds. */
const chatty = {
  kind: 'shell',
  command:
    'i=1; while [ $i -le 200 ]; do echo "deploying step $i"; i=$((i+1)); done; echo "all good" >&2; echo "::teamrun-link::{\\"url\\":\\"https://logs.example.test/run/1\\",\\"label\\":\\"full log\\"}"',
};
const broken = {
  kind: 'shell',
  command: 'echo "checking the config"; echo "config.yaml: line 3: bad indent" >&2; exit 3',
};

describe.concurrent('teamrun graph / logs / runs', () => {
  it("`teamrun graph` draws a run with each task's status, and `teamrun logs` shows the tail of a succeeded and of a failed task", async ({
    expect,
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const handle = await startRun(
      {
        name: uniqueQueue('logs-team'),
        retry: { maxAttempts: 1 },
        tasks: [
          { key: 'deploy', title: 'Deploy the site', executor: chatty },
          { key: 'check', title: 'Check the config', dependsOn: ['deploy'], executor: broken },
          { key: 'announce', title: 'Announce it', dependsOn: ['check'], executor: { kind: 'noop' } },
        ],
      },
      worker.taskQueue,
    );
    expect((await teamRunResult(handle)).status).toBe('failed');
    const id = handle.workflowId;

    const graph = await cli('graph', id);
    expect(graph.code).toBe(0);
    expect(graph.stdout).toMatch(/stage 1\n {2}└─ ✔ deploy +Deploy the site +\[succeeded\]/);
    expect(graph.stdout).toMatch(/stage 2\n {2}└─ ✘ check +Check the config +\[failed\] +← deploy/);
    expect(graph.stdout).toMatch(/stage 3\n {2}└─ ⊘ announce +Announce it +\[skipped\] +← check/);
    const dot = await cli('graph', id, '--dot');
    expect(dot.stdout).toContain('"deploy" -> "check";');
    expect(dot.stdout).toContain(
      '"check" [label="Check the config\\ncheck · failed", fillcolor="#fbe5e5", color="#d64545"];',
    );

    const ok = await cli('logs', id, 'deploy');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^deploy#1 · attempt 1 · succeeded/);
    expect(ok.stdout).toContain('link: full log https://logs.example.test/run/1');
    expect(ok.stdout).toContain('deploying step 200');
    expect(ok.stdout).toMatch(/--- stderr \(9 bytes\) ---\nall good/);

    const failed = await cli('logs', id, 'check', '--attempt', '1');
    expect(failed.code).toBe(0);
    expect(failed.stdout).toMatch(/^check#1 · attempt 1 · failed/);
    expect(failed.stdout).toContain('--- stdout (20 bytes) ---\nchecking the config');
    expect(failed.stdout).toContain('config.yaml: line 3: bad indent');

    // The current details (the Web UI's) show the link too.
    const { currentDetails } = await handle.query<{ currentDetails?: string }>('__temporal_workflow_metadata');
    expect(currentDetails).toContain('- links of `deploy`: [full log](https://logs.example.test/run/1)');

    expect(await cli('logs', id, 'announce')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('has no attempt of task "announce"'),
    });
    expect(await cli('logs', id, 'check', '--attempt', '4')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('has no attempt 4 (attempts: 1)'),
    });
  });

  it('`teamrun runs` lists runs by team and by status, with progress and budget used', async ({
    expect,
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const team = uniqueQueue('runs-team');
    const good = await startRun(
      {
        name: team,
        tasks: [
          { key: 'a', executor: { kind: 'noop' } },
          { key: 'b', dependsOn: ['a'], executor: { kind: 'noop' } },
        ],
      },
      worker.taskQueue,
    );
    const bad = await startRun(
      { name: team, retry: { maxAttempts: 1 }, tasks: [{ key: 'a', executor: { kind: 'shell', command: 'exit 1' } }] },
      worker.taskQueue,
    );
    const other = await startRun(
      { name: `${team}-other`, tasks: [{ key: 'a', executor: { kind: 'noop' } }] },
      worker.taskQueue,
    );
    await Promise.all([good, bad, other].map((h) => teamRunResult(h)));

    // Visibility catches up with the closes a moment later.
    const listed = await waitFor('both runs of the team to be listed as closed', async () => {
      const out = await cli('runs', '--team', team, '--json');
      const runs = JSON.parse(out.stdout) as Array<{ workflowId: string; state: string; workflowStatus: string }>;
      return runs.length === 2 && runs.every((r) => r.workflowStatus === 'COMPLETED') ? runs : null;
    });
    expect(listed.map((r) => r.workflowId).sort()).toEqual([good.workflowId, bad.workflowId].sort());

    const table = await cli('runs', '--team', team, '--since', '1h');
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^run\s+team\s+state\s+progress\s+pending\s+budget used\s+started\s+took/);
    expect(table.stdout).toMatch(
      new RegExp(`${good.workflowId}\\s+${team}\\s+succeeded\\s+2/2\\s+0\\s+2 att, 0 tok, \\$0.00`),
    );
    expect(table.stdout).toMatch(new RegExp(`${bad.workflowId}\\s+${team}\\s+failed\\s+1/1\\s+0\\s+1 att`));
    expect(table.stdout).not.toContain(other.workflowId);

    const failedOnly = await cli('runs', '--team', team, '--status', 'failed');
    expect(failedOnly.stdout).toContain(bad.workflowId);
    expect(failedOnly.stdout).not.toContain(good.workflowId);
    expect(await cli('runs', '--status', 'sideways')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('--status "sideways": not one of running'),
    });
    expect(await cli('runs', '--since', 'yesterdayish')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('--since "yesterdayish"'),
    });
  });
});
