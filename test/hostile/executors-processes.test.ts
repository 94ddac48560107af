import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  ContainmentError,
  containAttempt,
  ownCgroup,
  populated,
  removeCgroupTree,
} from '../../src/activities/executors/process-tree';
import * as msg from '../../src/workflows/messages';
import { spawnWorkerProcess, startRun, testConfig, uniqueQueue, waitFor } from '../helpers/env';
import { historyAttempts } from '../helpers/history';
import { alive } from '../helpers/processes';
import { runForTest, workerForTest } from '../helpers/scenario';
import { workflowTaskFailures } from './corpus';
import { attemptReports, pidsIn, tempDir } from './executors-helpers';

/** Whether this machine lets a worker create a cgroup v2 group (root, or a delegated subtree), asked the way the worker asks. */
function cgroupsWork(): boolean {
  try {
    containAttempt('required', 'probe').dispose();
    return true;
  } catch (err) {
    if (err instanceof ContainmentError) return false;
    throw err;
  }
}

const both = ['auto', 'off'] as const;

/**
 * These tests are about the host's processes: each task prints its pids (`$$`, `$!`) and the test checks them from
 * outside, and looks at the containment (cgroup or process tree) by itself. Under the worker's default sandbox a task
 * has a PID namespace of its own, and the pids it prints are that namespace's, so the sandbox is off here.
 * test/integration/sandbox.test.ts checks the same cleanup under the default sandbox, finding the host's pids.
 */
const HOST_PIDS = { sandbox: { ...testConfig().worker.sandbox, mode: 'off' as const } };
const HOST_PIDS_YAML = `# ${__filename}: the sandbox off (tasks print host pids)
worker:
  maxConcurrentAttempts: 16
  shutdownGraceMs: 500
  shell: { killGraceMs: 1000 }
  sandbox: { mode: off }
`;
const gone = (pids: number[]) => pids.every((p) => !alive(p));

/**
 * An entry point for worker processes that first moves the process into a cgroup of the test's own (below this
 * process's), removed when the test ends: a worker sweeps the groups of dead workers beside its own.
 */
function workersInGroupOf(dir: string): string {
  const group = path.join(ownCgroup()!, `test-${path.basename(dir)}`);
  mkdirSync(group);
  // Whatever order the test's other hooks run in: everything in the group is ended first, then it is removed.
  onTestFinished(async () => {
    removeCgroupTree(group);
    await waitFor('the test group to empty', () => !populated(group));
    removeCgroupTree(group);
  });
  const script = path.join(dir, 'enter.cjs');
  const main = path.resolve(__dirname, '../../src/worker/main.ts');
  writeFileSync(
    script,
    `require('node:fs').writeFileSync(${JSON.stringify(`${group}/cgroup.procs`)}, String(process.pid));\n` +
      `require(${JSON.stringify(main)}).runWorker().catch((err) => { console.error(err); process.exit(1); });\n`,
  );
  return script;
}

describe.each(both)('nothing a shell attempt starts outlives it (worker.shell.cgroup: %s)', (cgroup) => {
  const config = () => testConfig({ ...HOST_PIDS, shell: { ...testConfig().worker.shell, cgroup, killGraceMs: 500 } });

  it('ends a background child and a setsid daemon when the attempt succeeds, at once, even with a timeout far away', async () => {
    const dir = tempDir();
    const worker = await workerForTest({ config: config() });
    const started = Date.now();
    const handle = await runForTest(
      {
        name: 'background-success',
        tasks: [
          {
            key: 'leaves-child',
            executor: { kind: 'shell', command: `sleep 600 & echo $! > ${dir}/child.pid; echo started` },
          },
          // A double-forked daemon in a session of its own, its parent gone at once.
          {
            key: 'leaves-daemon',
            executor: { kind: 'shell', command: `(setsid sleep 600 & echo $! > ${dir}/daemon.pid); echo started` },
          },
          // The issue's case: a 3 s timeout and `sleep 45 &` once "succeeded" after 45 s.
          {
            key: 'timeout-and-child',
            executor: { kind: 'shell', timeoutMs: 3_000, command: `sleep 45 & echo $! > ${dir}/sleep45.pid` },
          },
        ],
      },
      worker,
    );
    const result = await handle.result();
    const settledMs = Date.now() - started;
    const pids = await pidsIn(dir, ['child.pid', 'daemon.pid', 'sleep45.pid']);

    expect(result.status).toBe('succeeded');
    expect(settledMs).toBeLessThan(40_000);
    expect(gone(pids)).toBe(true);
    console.info(
      `[cgroup ${cgroup}] run with 'sleep 600 &' and 'sleep 45 &' (timeoutMs 3000) settled in ${settledMs} ms; children and daemon gone`,
    );
  });

  it('ends the shell, a background child and a double-forked setsid daemon on timeout', async () => {
    const dir = tempDir();
    const worker = await workerForTest({ config: config() });
    const handle = await runForTest(
      {
        name: 'timeout-tree',
        retry: { maxAttempts: 1 },
        tasks: [
          {
            key: 'slow',
            executor: {
              kind: 'shell',
              timeoutMs: 3_000,
              command: `echo $$ > ${dir}/shell.pid; sleep 600 & echo $! > ${dir}/child.pid; (setsid sleep 600 & echo $! > ${dir}/daemon.pid); sleep 600`,
            },
          },
        ],
      },
      worker,
    );
    const result = await handle.result();
    const pids = await pidsIn(dir, ['shell.pid', 'child.pid', 'daemon.pid']);
    expect(result.tasks[0]).toMatchObject({ status: 'failed' });
    expect(result.tasks[0].lastError).toContain('timed out after 3000 ms');
    await waitFor('everything the attempt started to be gone', () => gone(pids), 10_000, 50);
  });

  it('ends the shell, its children and a setsid escapee on interrupt', async () => {
    const dir = tempDir();
    const worker = await workerForTest({ config: config() });
    const handle = await runForTest(
      {
        name: 'interrupt-tree',
        tasks: [
          {
            key: 'long',
            executor: {
              kind: 'shell',
              command: `echo $$ > ${dir}/shell.pid; sleep 600 & echo $! > ${dir}/child.pid; (setsid sleep 600 & echo $! > ${dir}/daemon.pid); wait`,
            },
          },
        ],
      },
      worker,
    );
    const pids = await pidsIn(dir, ['shell.pid', 'child.pid', 'daemon.pid']);
    expect(pids.every(alive)).toBe(true);
    const asked = Date.now();
    const verdict = await handle.executeUpdate(msg.interruptTaskUpdate, {
      args: [{ key: 'long', fencingToken: 1, reason: 'taking over' }],
    });
    expect(verdict).toMatchObject({ ok: true });
    await waitFor('the shell, the child and the daemon to be gone', () => gone(pids), 15_000, 50);
    console.info(`[cgroup ${cgroup}] interrupt -> shell, child and setsid daemon gone in ${Date.now() - asked} ms`);
    const [report] = await waitFor('the cancelled attempt in history', async () => {
      const reports = await attemptReports(handle);
      return reports.length ? reports : null;
    });
    expect(report).toMatchObject({ activityId: 'long#1', outcome: 'cancelled' });
  });

  it('ends the shell, its children and a setsid escapee on abortRun', async () => {
    const dir = tempDir();
    const worker = await workerForTest({ config: config() });
    const handle = await runForTest(
      {
        name: 'abort-tree',
        awaitAdjudication: false,
        tasks: [
          {
            key: 'long',
            executor: {
              kind: 'shell',
              command: `sleep 600 & echo $! > ${dir}/child.pid; (setsid sleep 600 & echo $! > ${dir}/daemon.pid); echo $$ > ${dir}/shell.pid; wait`,
            },
          },
        ],
      },
      worker,
    );
    const pids = await pidsIn(dir, ['shell.pid', 'child.pid', 'daemon.pid']);
    const verdict = await handle.executeUpdate(msg.abortRunUpdate, { args: [{ reason: 'operator stop' }] });
    expect(verdict).toEqual({ ok: true, activeClaims: 1 });
    await waitFor('the shell, the child and the daemon to be gone', () => gone(pids), 15_000, 50);
    expect((await handle.result()).status).toBe('aborted');
  });
});

describe('containment past what the process tree can see', () => {
  it('with a cgroup per attempt, ends even a daemon that detached and cleared its environment; without one, "required" refuses to run', async () => {
    const dir = tempDir();
    const worker = await workerForTest({
      config: testConfig({
        ...HOST_PIDS,
        shell: { ...testConfig().worker.shell, cgroup: 'required', killGraceMs: 500 },
      }),
    });
    const handle = await runForTest(
      {
        name: 'cgroup-required',
        retry: { maxAttempts: 2 },
        tasks: [
          {
            key: 'escape',
            executor: { kind: 'shell', command: `(env -i setsid sleep 600 & echo $! > ${dir}/daemon.pid); echo ok` },
          },
        ],
      },
      worker,
    );
    const result = await handle.result();
    if (cgroupsWork()) {
      expect(result.tasks[0].status).toBe('succeeded');
      const [daemon] = await pidsIn(dir, ['daemon.pid']);
      await waitFor('the detached daemon to be gone', () => !alive(daemon), 10_000, 50);
    } else {
      expect(result.tasks[0]).toMatchObject({ status: 'failed', attempts: 1 });
      expect(result.tasks[0].lastError).toContain('worker.shell.cgroup is "required"');
    }
  });

  it('a worker killed with kill -9 leaves its unsandboxed shells running; the next worker on the host ends them as it starts', async () => {
    const dir = tempDir();
    const config = path.join(dir, 'worker.yaml');
    writeFileSync(config, HOST_PIDS_YAML);
    // Both workers in a group of this test's own: no other test's worker sweeps the victim's first, nor is swept.
    const script = cgroupsWork() ? workersInGroupOf(dir) : undefined;
    const taskQueue = uniqueQueue('dead-worker-sweep');
    const victim = await spawnWorkerProcess({ taskQueue, identity: 'swept-victim', config, script });
    onTestFinished(() => void victim.child.kill('SIGKILL'));
    const handle = await startRun(
      {
        name: 'dead-worker-sweep',
        awaitAdjudication: false,
        tasks: [
          {
            key: 'held',
            executor: {
              kind: 'shell',
              command: `sleep 600 & echo $! > ${dir}/child.pid; (setsid sleep 600 & echo $! > ${dir}/daemon.pid); echo $$ > ${dir}/shell.pid; wait`,
            },
          },
        ],
      },
      taskQueue,
    );
    onTestFinished(async () => {
      if ((await handle.describe()).status.name === 'RUNNING') await handle.terminate('test finished');
    });
    const pids = await pidsIn(dir, ['shell.pid', 'child.pid', 'daemon.pid']);
    onTestFinished(() => pids.filter(alive).forEach((pid) => process.kill(pid, 'SIGKILL')));
    victim.child.kill('SIGKILL');
    await victim.exited;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    // Unsandboxed, nothing the dead worker started dies with it.
    expect(pids.every(alive)).toBe(true);
    // The next worker on this host, on a queue of its own: it starts no attempt, it only starts.
    const next = await spawnWorkerProcess({
      taskQueue: uniqueQueue('dead-worker-sweep-next'),
      identity: 'sweeper',
      config,
      script,
    });
    onTestFinished(() => void next.child.kill('SIGKILL'));
    if (script) {
      await waitFor(
        "the next worker to end the dead worker's shell, child and setsid daemon",
        () => gone(pids),
        10_000,
        50,
      );
      expect(next.output()).toMatch(/ended what \d+ worker\(s\) that died on this host left running/);
    } else {
      // Without cgroups, they run on until they end by themselves (docs/security.md).
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(pids.every(alive)).toBe(true);
    }
  });

  it('ends everything when the attempt loses its lease (frozen worker process resumed)', async () => {
    const dir = tempDir();
    const taskQueue = uniqueQueue('lease-loss-kill');
    const config = path.join(dir, 'worker.yaml');
    writeFileSync(config, HOST_PIDS_YAML);
    const worker = await spawnWorkerProcess({ taskQueue, identity: 'frozen-worker', config });
    onTestFinished(() => {
      worker.child.kill('SIGCONT');
      worker.child.kill('SIGKILL');
    });
    const handle = await startRun(
      {
        name: 'lease-loss-kill',
        lease: { ttlMs: 2_000 },
        awaitAdjudication: false,
        tasks: [
          {
            key: 'held',
            onLeaseLost: 'adjudicate',
            executor: {
              kind: 'shell',
              command: `sleep 600 & echo $! > ${dir}/child.pid; (setsid sleep 600 & echo $! > ${dir}/daemon.pid); wait`,
            },
          },
        ],
      },
      taskQueue,
    );
    onTestFinished(async () => {
      if ((await handle.describe()).status.name === 'RUNNING') await handle.terminate('test finished');
    });
    const pids = await pidsIn(dir, ['child.pid', 'daemon.pid']);
    worker.child.kill('SIGSTOP');
    // The frozen worker is the only one, so the history (not a query) says when the server timed the attempt out.
    await waitFor(
      'the lease to expire',
      async () => (await historyAttempts(handle)).some((a) => a.outcome === 'timed-out'),
      30_000,
      200,
    );
    expect(pids.every(alive)).toBe(true);
    worker.child.kill('SIGCONT');
    const resumed = Date.now();
    await waitFor('the resumed worker to end what its lost attempt started', () => gone(pids), 30_000, 50);
    console.info(
      `lease lost: resumed worker ended the child and the setsid daemon ${Date.now() - resumed} ms after SIGCONT`,
    );
    await handle.result();
    // Named with its cause, should there be one. The server's UNHANDLED_COMMAND, for a completion that met an event
    // arriving meanwhile (seen once in a loaded CI run), is Temporal's protocol, not a failure of workflow code.
    expect(await workflowTaskFailures(handle)).toEqual([]);
    expect(worker.child.exitCode).toBeNull();
  });
});
