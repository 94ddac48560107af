import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startDevServer, type DevServer } from '../../src/devserver/server';
import { temporalBinary, uniqueQueue, waitFor } from '../helpers/env';
import { workerForTest } from '../helpers/scenario';
import { teamrun } from './teamrun-cli';

const run = promisify(execFile);
const dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-doctor-'));
const plan = path.join(dir, 'one.yaml');
writeFileSync(plan, 'name: doctor-one\ntasks:\n  - { key: a, executor: { kind: noop } }\n');

/** The line of one check in doctor's output (`ok    search attributes  ...`). */
function line(stdout: string, check: string): string {
  return (
    stdout.split('\n').find((l) => new RegExp(`^(ok|FAIL|skip)\\s+${check}\\s`).test(l)) ??
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
      extraNamespaces: ['fixme'],
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

describe('teamrun doctor on a server with teamrun set up', () => {
  it('passes every check only once a worker polls the task queue, and names that worker', async () => {
    const taskQueue = uniqueQueue('doctor');
    const env = { TEAMRUN_TASK_QUEUE: taskQueue };
    const alone = await teamrun(['doctor'], env);
    expect(alone.code).toBe(1);
    expect(line(alone.stdout, 'search attributes')).toMatch(/^ok /);
    expect(line(alone.stdout, 'worker')).toMatch(new RegExp(`^FAIL .*no worker polls task queue "${taskQueue}"`));
    expect(alone.stdout).toContain('1 of 5 checks failed');

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
    expect(polled.stdout).toContain('all 5 checks passed');
    expect(polled.code).toBe(0);
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
