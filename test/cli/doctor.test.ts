import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startDevServer, type DevServer } from '../../src/devserver/server';
import { sandboxAtStart } from '../../src/activities/executors/sandbox';
import { temporalBinary, testClient, testConfig, uniqueQueue, waitFor } from '../helpers/env';
import { workerForTest } from '../helpers/scenario';
import { spawnTeamrun, teamrun, waitForOutput } from './teamrun-cli';

const run = promisify(execFile);
const dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-doctor-'));
const plan = path.join(dir, 'one.yaml');
writeFileSync(plan, 'name: doctor-one\ntasks:\n  - { key: a, executor: { kind: noop } }\n');

/** The line of one check in doctor's output (`ok    search attributes  ...`). */
function line(stdout: string, check: string): string {
  return (
    stdout.split('\n').find((l) => new RegExp(`^(ok|warn|FAIL|skip)\\s+${check}\\s`).test(l)) ??
    `(no "${check}" line in:\n${stdout})`
  );
}

describe('teamrun doctor on a plain `temporal server start-dev` (no search attributes)', () => {
  let server: DevServer;
  beforeAll(async () => {
    // Two namespaces: one fixed with the printed commands, one with --fix.
    server = await startDevServer({
      binary: temporalBinary(),
      port: await freePort(),
      dbFile: path.join(dir, 'plain.db'),
      headless: true,
      searchAttributes: false,
      extraNamespaces: ['fixme', 'bare'],
    });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('fails the search-attribute check and prints the exact commands that fix it; they do', async () => {
    const env = { TEMPORAL_ADDRESS: server.address };
    const before = await teamrun(['doctor'], env);
    expect(before.code).toBe(1);
    expect(line(before.stdout, 'connection')).toMatch(/^ok .*namespace default \(TLS off\) answers/);
    expect(line(before.stdout, 'search attributes')).toMatch(
      /^FAIL .*missing TeamRunStatus, TeamRunPendingAdjudications, TeamRunBudgetStopped, TeamName/,
    );
    const commands = before.stdout
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.startsWith('temporal operator search-attribute create'));
    expect(commands).toHaveLength(4);
    expect(commands).toContain(
      `temporal operator search-attribute create --address ${server.address} --namespace default --name TeamName --type Keyword`,
    );

    // Starting a run names the cause in one line, not a stack.
    const start = await teamrun(['start', plan], env);
    expect(start.code).toBe(1);
    expect(start.stderr).toContain(
      "namespace default lacks teamrun's search attributes TeamRunStatus, TeamRunPendingAdjudications, TeamRunBudgetStopped, TeamName",
    );
    expect(start.stderr).not.toMatch(/\n\s+at /);
    // The commands it prints name the server in use, not the temporal CLI's own default.
    expect(start.stderr).toContain(
      `temporal operator search-attribute create --address ${server.address} --namespace default --name TeamName`,
    );

    for (const command of commands) {
      const [, ...args] = command.split(' ');
      await run(temporalBinary(), args);
    }
    const after = await teamrun(['doctor'], env);
    expect(line(after.stdout, 'search attributes')).toMatch(
      /^ok .*TeamRunStatus, TeamRunPendingAdjudications, TeamRunBudgetStopped, TeamName registered in default/,
    );
  });

  it('--fix registers them itself', async () => {
    const env = { TEMPORAL_ADDRESS: server.address, TEMPORAL_NAMESPACE: 'fixme' };
    expect(line((await teamrun(['doctor'], env)).stdout, 'search attributes')).toMatch(/^FAIL .*missing .* in fixme/);
    const fixed = await teamrun(['doctor', '--fix'], env);
    expect(line(fixed.stdout, 'search attributes')).toMatch(
      /^ok .*registered TeamRunStatus, TeamRunPendingAdjudications, TeamRunBudgetStopped, TeamName in fixme/,
    );
    expect(line((await teamrun(['doctor'], env)).stdout, 'search attributes')).toMatch(/^ok .*registered in fixme/);
  });
});

describe('a run started with plain `temporal workflow start` on a namespace without the search attributes', () => {
  let server: DevServer;
  const bareDir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-bare-'));
  beforeAll(async () => {
    server = await startDevServer({
      binary: temporalBinary(),
      port: await freePort(),
      dbFile: path.join(bareDir, 'bare.db'),
      headless: true,
      searchAttributes: false,
    });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(bareDir, { recursive: true, force: true });
  });

  it('`status` and `doctor RUN` name the failing workflow task and the exact commands; the worker log has no escapes', async () => {
    const env = { TEMPORAL_ADDRESS: server.address, TEAMRUN_TASK_QUEUE: uniqueQueue('bare') };
    const worker = spawnTeamrun(['worker'], env);
    try {
      await waitForOutput(worker, 'teamrun worker ready');
      const input = JSON.stringify({ name: 'bare', tasks: [{ key: 'a', executor: { kind: 'noop' } }] });
      const id = uniqueQueue('bare-run');
      const start = ['workflow', 'start', '--address', server.address, '--workflow-id', id, '--type', 'teamRun'];
      await run(temporalBinary(), [...start, '--task-queue', env.TEAMRUN_TASK_QUEUE, '--input', input]);
      const status = await waitFor(
        'status to name the failing workflow task',
        async () => {
          const result = await teamrun(['status', id], env);
          return result.stderr.includes('its workflow task fails') ? result : null;
        },
        60_000,
        500,
      );
      expect(status.code).toBe(1);
      expect(status.stderr).toMatch(
        /BadSearchAttributes: Namespace default has no mapping defined for search attribute/,
      );
      expect(status.stderr).not.toContain('Start one with `teamrun worker`');
      const command = (name: string, type: string) =>
        `temporal operator search-attribute create --address ${server.address} --namespace default --name ${name} --type ${type}`;
      expect(status.stderr).toContain(command('TeamName', 'Keyword'));
      expect(status.stderr).toContain(command('TeamRunPendingAdjudications', 'Int'));

      const doctor = await teamrun(['doctor', id], env);
      expect(doctor.code).toBe(1);
      expect(line(doctor.stdout, 'run')).toMatch(/^FAIL .*is stuck: its workflow task fails .*BadSearchAttributes/);
      expect(doctor.stdout).toContain(command('TeamRunBudgetStopped', 'Bool'));
      expect(line(doctor.stdout, 'run queues')).toMatch(/^ok .*polled: /);

      await waitFor('the worker to log the refused workflow task', () =>
        worker.stderr().includes('BadSearchAttributes'),
      );
      // oxlint-disable-next-line no-control-regex -- an escape character is what must not be there
      expect(worker.stderr() + worker.stdout()).not.toMatch(/\u001b/);
      expect(worker.stderr()).not.toContain('No workflows registered');
      expect(worker.stderr()).not.toContain('/stop/');
    } finally {
      worker.child.kill('SIGKILL');
      await worker.exited;
    }
  });
});

describe('teamrun doctor on a server with teamrun set up', () => {
  it('passes every check only once a worker polls the task queue, and names that worker', async () => {
    const taskQueue = uniqueQueue('doctor');
    const env = { TEAMRUN_TASK_QUEUE: taskQueue };
    const alone = await teamrun(['doctor'], env);
    expect(alone.code).toBe(1);
    expect(line(alone.stdout, 'search attributes')).toMatch(/^ok /);
    expect(line(alone.stdout, 'worker')).toMatch(new RegExp(`^FAIL .*no worker polls task queue "${taskQueue}"`));
    expect(alone.stdout).toContain('1 of 6 checks failed');
    // Whether this machine's worker would isolate its attempts, asked as the worker asks (bubblewrap is installed in CI).
    const isolated = sandboxAtStart(testConfig().worker.sandbox).isolated;
    expect(line(alone.stdout, 'sandbox')).toMatch(
      isolated ? /^ok .*attempts run in a PID namespace of their own \(bwrap\)/ : /^warn .*NOT isolated/,
    );

    await workerForTest({ taskQueue, identity: 'doctor-test-worker' });
    // The server lists a poller once its first poll arrives.
    const polled = await waitFor(
      'doctor to see the worker',
      async () => {
        const result = await teamrun(['doctor'], env);
        return result.code === 0 ? result : null;
      },
      60_000,
      500,
    );
    expect(line(polled.stdout, 'worker')).toMatch(
      new RegExp(`^ok .*task queue "${taskQueue}" polled by doctor-test-worker`),
    );
    expect(polled.stdout).toContain(`all 6 checks passed${isolated ? '\n' : ', 1 with a warning'}`);
    expect(polled.code).toBe(0);

    // Where bwrap cannot start a sandbox the default config runs attempts unsandboxed: a warning, not a failure.
    const config = path.join(mkdtempSync(path.join(os.tmpdir(), 'teamrun-doctor-sandbox-')), 'no-bwrap.yaml');
    writeFileSync(config, 'worker:\n  sandbox: { command: /nonexistent/bwrap }\n');
    const warned = await teamrun(['doctor'], { ...env, TEAMRUN_CONFIG: config });
    expect(line(warned.stdout, 'sandbox')).toMatch(
      /^warn .*attempts are NOT isolated from each other: \/nonexistent\/bwrap cannot start a sandbox here/,
    );
    expect(warned.stdout).toContain('install bubblewrap');
    expect(warned.stdout).toContain('all 6 checks passed, 1 with a warning');
    expect(warned.code).toBe(0);
  });

  it('shows an `activity` attempt on a queue nobody polls as not started, in `status` and `doctor RUN`', async () => {
    const worker = await workerForTest({ identity: 'queue-test-worker' });
    const nobody = uniqueQueue('nobody-polls');
    const planFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'teamrun-unpolled-')), 'unpolled.yaml');
    writeFileSync(
      planFile,
      [
        'name: unpolled',
        `activityQueues: [${nobody}]`,
        'tasks:',
        `  - { key: far, executor: { kind: activity, activityType: research, taskQueue: ${nobody}, startToCloseMs: 600000 } }`,
      ].join('\n'),
    );
    const env = { TEAMRUN_TASK_QUEUE: worker.taskQueue };
    const id = uniqueQueue('unpolled-run');
    expect((await teamrun(['start', planFile, '--id', id], env)).code).toBe(0);
    const status = await waitFor('status to list the attempt', async () => {
      const result = await teamrun(['status', id], env);
      return result.stdout.includes('not started') ? result : null;
    });
    expect(status.stdout).toMatch(
      new RegExp(
        `not started +far#1: scheduled .*on task queue "${nobody}", no worker polls that queue for activities`,
      ),
    );
    const doctor = await teamrun(['doctor', id], env);
    expect(line(doctor.stdout, 'run')).toMatch(new RegExp(`^ok .*${id}: running`));
    expect(line(doctor.stdout, 'run queues')).toMatch(new RegExp(`^FAIL .*no worker polls "${nobody}" \\(activity\\)`));
    expect(doctor.code).toBe(1);
    await (await testClient()).workflow.getHandle(id).terminate('test finished');
  });

  it('says within seconds, in one line, that a server it cannot reach is not there', async () => {
    const nobody = `127.0.0.1:${await freePort()}`;
    const status = await teamrun(['status', 'any-run'], { TEMPORAL_ADDRESS: nobody });
    expect(status.code).toBe(1);
    expect(status.stderr).toContain(`cannot reach Temporal at ${nobody}`);
    const doctor = await teamrun(['doctor'], { TEMPORAL_ADDRESS: nobody });
    expect(doctor.code).toBe(1);
    expect(line(doctor.stdout, 'connection')).toMatch(new RegExp(`^FAIL .*${nobody}`));
    expect(line(doctor.stdout, 'search attributes')).toMatch(/^skip /);
  });
});
