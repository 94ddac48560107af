import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { RunTaskResult } from '../../src/activities/interface';
import { loadPlanFile } from '../../src/plan/load';
import type { TeamPlanInput } from '../../src/plan/schema';
import { spawnWorkerProcess, startRun, uniqueQueue } from '../helpers/env';
import { runForTest, workerForTest } from '../helpers/scenario';
import { workflowTaskFailures } from './corpus';
import { attemptReports, tempDir } from './executors-helpers';

const byKey = <T extends { key: string }>(items: T[]) => Object.fromEntries(items.map((t) => [t.key, t]));

/** Resident memory of a process, in MiB: its peak since the last reset (VmHWM) or now (VmRSS). */
function rssMiB(pid: number, which: 'VmHWM' | 'VmRSS'): number {
  const kb = Number(new RegExp(`${which}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  return Math.round(kb / 1024);
}

describe('output a task prints, however large or shaped, never takes down its worker', () => {
  it('reads 600 MB on one line, 2 M lines, binary and a stderr flood as bounded streams; the worker stays alive and small', async () => {
    const taskQueue = uniqueQueue('hostile-output');
    const worker = await spawnWorkerProcess({ taskQueue, identity: 'output-worker' });
    onTestFinished(() => {
      worker.child.kill('SIGKILL');
    });
    // The worker's peak after an ordinary run, to compare with.
    await (
      await startRun(
        { name: 'quiet', tasks: [{ key: 'hello', executor: { kind: 'shell', command: 'echo hello' } }] },
        taskQueue,
      )
    ).result();
    // Its peak is measured from here: writing 5 to clear_refs resets VmHWM to what it holds now.
    const pid = worker.child.pid!;
    const before = rssMiB(pid, 'VmRSS');
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    const handle = await startRun(
      {
        name: 'hostile-output',
        teammates: 1,
        retry: { maxAttempts: 3, backoffMs: 100 },
        tasks: [
          { key: 'one-line', executor: { kind: 'shell', command: "head -c 600000000 /dev/zero | tr '\\0' a" } },
          { key: 'many-lines', dependsOn: ['one-line'], executor: { kind: 'shell', command: 'seq 1 2000000' } },
          {
            key: 'binary',
            dependsOn: ['many-lines'],
            executor: { kind: 'shell', command: 'head -c 2000000 /dev/urandom' },
          },
          {
            key: 'stderr-flood',
            dependsOn: ['binary'],
            executor: { kind: 'shell', command: "head -c 100000000 /dev/zero | tr '\\0' e >&2" },
          },
          {
            key: 'long-directive',
            dependsOn: ['stderr-flood'],
            executor: {
              kind: 'shell',
              command: "printf '::teamrun-output::\"'; head -c 300000 /dev/zero | tr '\\0' a; echo '\"'",
            },
          },
          {
            key: 'after',
            dependsOn: ['stderr-flood'],
            executor: { kind: 'shell', command: 'echo "::teamrun-output::{\\"alive\\":true}"' },
          },
        ],
      },
      taskQueue,
    );
    const result = await handle.result();
    const tasks = byKey(result.tasks);

    expect(tasks['one-line'].status).toBe('succeeded');
    expect(tasks['many-lines'].status).toBe('succeeded');
    expect(tasks.binary.status).toBe('succeeded');
    expect(tasks['stderr-flood'].status).toBe('succeeded');
    expect(tasks.after).toMatchObject({ status: 'succeeded', output: { alive: true } });
    // A directive over worker.shell.maxLineBytes is dropped, and says so: retrying cannot help.
    expect(tasks['long-directive']).toMatchObject({ status: 'failed', attempts: 1 });
    expect(tasks['long-directive'].lastError).toContain('::teamrun-output::');
    expect(tasks['long-directive'].lastError).toContain('worker.shell.maxLineBytes');

    const reports = byKey((await attemptReports(handle)).map((r) => ({ ...r, key: r.activityId.split('#')[0] })));
    const logs = (key: string) => (reports[key].report as RunTaskResult).logs!;
    expect(logs('one-line').stdoutBytes).toBe(600_000_000);
    expect(logs('one-line').stdout === 'a'.repeat(4096)).toBe(true);
    expect(logs('one-line').stderr).toContain('line(s) over 262144 bytes');
    expect(logs('many-lines').stdout.endsWith('1999999\n2000000\n')).toBe(true);
    expect(logs('many-lines').stdoutBytes).toBe(14_888_896);
    expect(logs('binary').stdoutBytes).toBe(2_000_000);
    expect(Buffer.byteLength(logs('binary').stdout)).toBeLessThanOrEqual(3 * 4096);
    expect(logs('stderr-flood')).toMatchObject({ stderrBytes: 100_000_000, stdoutBytes: 0 });
    expect(Buffer.byteLength(logs('stderr-flood').stderr)).toBe(4096);
    expect(
      logs('stderr-flood').stderr.endsWith(
        `${'e'.repeat(3000)}\n[teamrun] stderr: 1 line(s) over 262144 bytes (worker.shell.maxLineBytes); 100000000 bytes in all, the last 4096 kept\n`,
      ),
    ).toBe(true);

    expect(await workflowTaskFailures(handle)).toEqual([]);
    expect(worker.child.exitCode).toBeNull();
    const peak = rssMiB(pid, 'VmHWM');
    console.info(
      `worker after 600 MB on one line + 100 MB stderr: alive, peak RSS ${peak} MiB (${before} MiB before them)`,
    );
    // It read 700 MB and holds a few KiB of it (test/unit/redact.test.ts counts the bytes StreamCapture holds).
    // The rest is garbage of 64 KiB reads that the GC frees when it gets to it: 20-25 MiB on a quiet machine,
    // 223 MiB once in a loaded CI. Holding the 600 MB line would take at least 572 MiB; half of that is the bound.
    expect(peak - before).toBeLessThan(286);
  });

  it('keeps the tail of stdout and stderr and the printed links of a succeeded and of a failed attempt, in history', async () => {
    const worker = await workerForTest();
    const handle = await runForTest(
      {
        name: 'logs-and-links',
        retry: { maxAttempts: 1 },
        tasks: [
          {
            key: 'deploy',
            executor: {
              kind: 'shell',
              command: [
                'echo deploying web to staging',
                'echo "::teamrun-link::{\\"url\\":\\"https://ci.example/build/42\\",\\"label\\":\\"full log\\"}"',
                'echo "::teamrun-link::{\\"url\\":\\"javascript:alert(1)\\"}"',
                'echo warming cache >&2',
                'echo done',
              ].join('; '),
            },
          },
          {
            key: 'broken',
            executor: { kind: 'shell', command: 'echo step 1; echo "no such table: users" >&2; exit 3' },
          },
        ],
      },
      worker,
    );
    const result = await handle.result();
    expect(byKey(result.tasks).deploy.status).toBe('succeeded');
    expect(byKey(result.tasks).broken.status).toBe('failed');

    const [deploy, broken] = await attemptReports(handle).then((r) =>
      ['deploy#1', 'broken#1'].map((id) => r.find((a) => a.activityId === id)!),
    );
    expect(deploy.outcome).toBe('completed');
    expect(deploy.report!.logs).toMatchObject({ stdoutBytes: expect.any(Number), stderrBytes: 14 });
    expect(deploy.report!.logs!.stdout).toMatch(/^deploying web to staging\n[\s\S]*done\n$/);
    // The javascript: link was refused (and said so in stderr); the http one is kept.
    expect(deploy.report!.links).toEqual([{ url: 'https://ci.example/build/42', label: 'full log' }]);
    expect(deploy.report!.logs!.stderr).toContain('warming cache\n');
    expect(deploy.report!.logs!.stderr).toContain('[teamrun] ignored malformed line');
    expect(broken.outcome).toBe('failed');
    expect(broken.failure!.message).toBe('shell command failed (exit code 3): no such table: users');
    expect(broken.report!.logs).toEqual({
      stdout: 'step 1\n',
      stderr: 'no such table: users\n',
      stdoutBytes: 7,
      stderrBytes: 21,
    });
    // Logs live in history only: the run's state (and so its result and queries) never holds them.
    expect(JSON.stringify(result)).not.toContain('deploying web to staging');
  });
});

describe('a directive line the worker cannot take fails the attempt, never a silent success', () => {
  it('fails output, usage, error, message and tasks lines that are not JSON without retry, naming the line; a bad link is only noted', async () => {
    const worker = await workerForTest();
    const shell = (command: string) => ({ kind: 'shell', command });
    const handle = await runForTest(
      {
        name: 'malformed-lines',
        retry: { maxAttempts: 3, backoffMs: 100 },
        tasks: [
          // What examples/writer-reviewer.yaml's writer printed when `teamrun inbox` was not found.
          { key: 'output', executor: shell('m=""; echo "::teamrun-output::{\\"received\\":$m}"') },
          { key: 'usage', executor: shell('echo \'::teamrun-usage::{"inputTokens":-5}\'') },
          { key: 'error', executor: shell('echo "::teamrun-error::quota exhausted"; exit 1') },
          { key: 'message', executor: shell('echo \'::teamrun-message::{"body":"no recipient"}\'') },
          { key: 'tasks', executor: shell('echo \'::teamrun-tasks::[{"key":"x"}]\'') },
          { key: 'link', executor: shell('echo \'::teamrun-link::{"url":"javascript:alert(1)"}\'; echo ok') },
        ],
      },
      worker,
    );
    const tasks = byKey((await handle.result()).tasks);
    for (const key of ['output', 'usage', 'error', 'message', 'tasks']) {
      expect(tasks[key], key).toMatchObject({ status: 'failed', attempts: 1 });
      expect(tasks[key].lastError, key).toMatch(new RegExp(`^malformed ::teamrun-${key}:: line "::teamrun-${key}::`));
    }
    expect(tasks.output.lastError).toContain('malformed ::teamrun-output:: line "::teamrun-output::{"received":}": ');
    const failures = byKey((await attemptReports(handle)).map((r) => ({ ...r, key: r.activityId.split('#')[0] })));
    expect(failures.output.failure).toMatchObject({ type: 'TeamShellMalformedLine', nonRetryable: true });
    expect(failures.usage.failure).toMatchObject({ type: 'TeamInvalidUsage', nonRetryable: true });
    expect(tasks.link.status).toBe('succeeded');
    expect(await workflowTaskFailures(handle)).toEqual([]);
  });
});

describe('examples/writer-reviewer.yaml', () => {
  it('succeeds with `teamrun` on the worker PATH, the writer outputting the review it received', async () => {
    const bin = tempDir();
    const root = path.resolve(__dirname, '..', '..');
    writeFileSync(
      path.join(bin, 'teamrun'),
      `#!/bin/sh\nexec ${process.execPath} ${path.join(root, 'bin', 'teamrun.js')} "$@"\n`,
      { mode: 0o755 },
    );
    const worker = await workerForTest({ env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } });
    const loaded = loadPlanFile(path.join(root, 'examples', 'writer-reviewer.yaml'));
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems));
    const result = await (await runForTest(loaded.raw as TeamPlanInput, worker)).result();
    const tasks = byKey(result.tasks);
    expect(tasks.writer.lastError).toBeNull();
    expect(result.status).toBe('succeeded');
    expect(tasks.writer.output).toMatchObject({
      received: [{ from: 'reviewer', subject: 'review', body: { fix: 'rename foo to bar' } }],
    });
  });
});
