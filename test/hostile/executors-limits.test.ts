import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { TeamrunConfig } from '../../src/config/config';
import { testConfig } from '../helpers/env';
import { runForTest, workerForTest } from '../helpers/scenario';
import { workflowTaskFailures } from './corpus';
import { attemptReports, tempDir } from './executors-helpers';

const byKey = <T extends { key: string }>(items: T[]) => Object.fromEntries(items.map((t) => [t.key, t]));

function configWith(
  shell: Partial<TeamrunConfig['worker']['shell']> = {},
  http: Partial<TeamrunConfig['worker']['http']> = {},
): TeamrunConfig {
  const base = testConfig();
  return testConfig({ shell: { ...base.worker.shell, ...shell }, http: { ...base.worker.http, ...http } });
}

async function listen(server: Server, host = '127.0.0.1'): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  onTestFinished(() => {
    server.closeAllConnections();
    server.close();
  });
  return `http://${host}:${(server.address() as AddressInfo).port}`;
}

describe('what a shell task is handed, and where it may run', () => {
  it('hands three 60 KB dependency outputs through a file (removed afterwards), and refuses what can never start, without retrying', async () => {
    const worker = await workerForTest();
    const big = (key: string) => ({
      key,
      executor: {
        kind: 'shell',
        command: `printf '::teamrun-output::"'; head -c 60000 /dev/zero | tr '\\0' ${key}; echo '"'`,
      },
    });
    const handle = await runForTest(
      {
        name: 'large-inputs',
        retry: { maxAttempts: 3, backoffMs: 100 },
        tasks: [
          big('a'),
          big('b'),
          big('c'),
          {
            key: 'join',
            dependsOn: ['a', 'b', 'c'],
            executor: {
              kind: 'shell',
              command: `node -e 'const i = JSON.parse(require("fs").readFileSync(process.env.TEAMRUN_INPUTS_FILE, "utf8")); console.log("::teamrun-output::" + JSON.stringify({ sizes: Object.values(i).map((s) => s.length), inline: "TEAMRUN_INPUTS" in process.env, file: process.env.TEAMRUN_INPUTS_FILE }))'`,
            },
          },
          {
            key: 'small',
            executor: { kind: 'shell', command: 'printf "::teamrun-output::{\\"inline\\":%s}\\n" "$TEAMRUN_INPUTS"' },
          },
          // One variable over the kernel's 128 KiB per-string limit: spawn fails with E2BIG on any worker.
          { key: 'huge-env', executor: { kind: 'shell', command: 'true', env: { BLOB: 'x'.repeat(200_000) } } },
          { key: 'no-cwd', executor: { kind: 'shell', command: 'true', cwd: '/nonexistent/teamrun-dir' } },
        ],
      },
      worker,
    );
    const result = await handle.result();
    const tasks = byKey(result.tasks);
    const join = tasks.join.output as { sizes: number[]; inline: boolean; file: string };
    expect(join.sizes).toEqual([60_000, 60_000, 60_000]);
    expect(join.inline).toBe(false);
    expect(existsSync(join.file)).toBe(false);
    expect(tasks.small.output).toEqual({ inline: {} });
    expect(tasks['huge-env']).toMatchObject({ status: 'failed', attempts: 1 });
    expect(tasks['huge-env'].lastError).toContain('E2BIG');
    expect(tasks['no-cwd']).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: 'cwd "/nonexistent/teamrun-dir" does not exist',
    });
    const failures = (await attemptReports(handle)).filter((r) => r.outcome === 'failed');
    expect(failures.map((f) => [f.activityId, f.failure!.type, f.failure!.nonRetryable])).toEqual([
      ['huge-env#1', 'TeamShellTooBig', true],
      ['no-cwd#1', 'TeamShellBadCwd', true],
    ]);
    expect(await workflowTaskFailures(handle)).toEqual([]);
  });

  it('keeps tasks inside worker.shell.cwdRoot and runs only commands worker.shell.allowCommands matches', async () => {
    const root = tempDir();
    mkdirSync(path.join(root, 'repo'));
    symlinkSync('/tmp', path.join(root, 'out'));
    const worker = await workerForTest({
      config: configWith({ cwdRoot: root, allowCommands: ['pwd', 'echo *', '/ls( -l)?/'] }),
    });
    const handle = await runForTest(
      {
        name: 'cwd-root',
        retry: { maxAttempts: 2, backoffMs: 100 },
        tasks: [
          { key: 'inside', executor: { kind: 'shell', command: 'pwd', cwd: 'repo' } },
          { key: 'default', executor: { kind: 'shell', command: 'echo "::teamrun-output::\\"$PWD\\""' } },
          { key: 'dotdot', executor: { kind: 'shell', command: 'pwd', cwd: 'repo/../..' } },
          { key: 'absolute', executor: { kind: 'shell', command: 'pwd', cwd: '/etc' } },
          { key: 'symlink', executor: { kind: 'shell', command: 'pwd', cwd: 'out' } },
          { key: 'listed', executor: { kind: 'shell', command: 'ls -l' } },
          { key: 'not-listed', executor: { kind: 'shell', command: 'rm -rf repo' } },
        ],
      },
      worker,
    );
    const result = await handle.result();
    const tasks = byKey(result.tasks);
    expect(tasks.inside.status).toBe('succeeded');
    expect(tasks.default.output).toBe(root);
    expect(tasks.listed.status).toBe('succeeded');
    for (const key of ['dotdot', 'absolute', 'symlink']) {
      expect(tasks[key]).toMatchObject({ status: 'failed', attempts: 1 });
      expect(tasks[key].lastError).toContain('outside worker.shell.cwdRoot');
    }
    expect(tasks['not-listed']).toMatchObject({ status: 'failed', attempts: 1 });
    expect(tasks['not-listed'].lastError).toBe(
      'command refused: "rm -rf repo" matches none of worker.shell.allowCommands ("pwd", "echo *", "/ls( -l)?/")',
    );
    expect(existsSync(path.join(root, 'repo'))).toBe(true);
  });
});

describe("a plan's env cannot undo worker.shell.allowCommands", () => {
  it('refuses PATH, NODE_OPTIONS, LD_PRELOAD and npm_config_* before anything runs, naming the variable; other names pass', async () => {
    const dir = tempDir();
    const marker = path.join(dir, 'planted-program-ran');
    // What the plan plants: its own `ls` first on PATH, and a module node would preload.
    writeFileSync(path.join(dir, 'ls'), `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 });
    writeFileSync(path.join(dir, 'evil.cjs'), `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x');\n`);
    const worker = await workerForTest({
      config: configWith({ allowCommands: ['ls', 'node -e 0', 'echo *'], planEnv: ['TARGET', 'NODE_ENV'] }),
    });
    const shell = (command: string, env: Record<string, unknown>) => ({ kind: 'shell', command, env });
    const handle = await runForTest(
      {
        name: 'env-allow-commands',
        retry: { maxAttempts: 3, backoffMs: 100 },
        tasks: [
          { key: 'path', executor: shell('ls', { PATH: `${dir}:/usr/bin:/bin` }) },
          { key: 'node-options', executor: shell('node -e 0', { NODE_OPTIONS: `--require ${dir}/evil.cjs` }) },
          { key: 'preload', executor: shell('ls', { LD_PRELOAD: `${dir}/evil.so` }) },
          { key: 'npm-config', executor: shell('ls', { npm_config_script_shell: `${dir}/ls` }) },
          { key: 'from-worker', executor: shell('ls', { PATH: { fromWorkerEnv: 'HOME' } }) },
          // Outside the denylist, but steering an allowed program: refused as not in worker.shell.planEnv.
          { key: 'cc', executor: shell('ls', { CC: `${dir}/ls` }) },
          { key: 'makefiles', executor: shell('ls', { MAKEFILES: `${dir}/evil.mk` }) },
          {
            key: 'plain',
            executor: shell('echo "::teamrun-output::\\"$TARGET $NODE_ENV\\""', {
              TARGET: 'prod',
              NODE_ENV: 'production',
            }),
          },
        ],
      },
      worker,
    );
    const tasks = byKey((await handle.result()).tasks);
    const refused: Array<[string, string]> = [
      ['path', 'PATH'],
      ['node-options', 'NODE_OPTIONS'],
      ['preload', 'LD_PRELOAD'],
      ['npm-config', 'npm_config_script_shell'],
      ['from-worker', 'PATH'],
      ['cc', 'CC'],
      ['makefiles', 'MAKEFILES'],
    ];
    for (const [key, name] of refused) {
      expect(tasks[key], key).toMatchObject({ status: 'failed', attempts: 1 });
      expect(tasks[key].lastError).toContain(
        `executor.env.${name}: may not be set by a plan on a worker that restricts commands`,
      );
    }
    const reports = await attemptReports(handle);
    expect(reports.find((r) => r.activityId === 'path#1')!.failure).toMatchObject({
      type: 'TeamShellEnvRefused',
      nonRetryable: true,
    });
    expect(existsSync(marker)).toBe(false);
    expect(tasks.plain).toMatchObject({ status: 'succeeded', output: 'prod production' });
  });
});

describe('where an http task may go, and how much it reads', () => {
  it('refuses loopback without an allowHosts entry, and reaches it with one', async () => {
    let requests = 0;
    const url = await listen(createServer((_, res) => (requests++, res.end('{"output":{"ok":true}}'))));
    const plan = {
      name: 'http-allow',
      retry: { maxAttempts: 3, backoffMs: 100 },
      tasks: [{ key: 'call', executor: { kind: 'http', url } }],
    };

    const denied = await (await runForTest(plan, await workerForTest())).result();
    expect(denied.tasks[0]).toMatchObject({ status: 'failed', attempts: 1 });
    expect(denied.tasks[0].lastError).toContain('is a loopback, private or link-local address');
    expect(denied.tasks[0].lastError).toContain('worker.http.allowHosts');
    expect(requests).toBe(0);

    const allowed = await (
      await runForTest(plan, await workerForTest({ config: configWith({}, { allowHosts: ['127.0.0.1'] }) }))
    ).result();
    expect(allowed.tasks[0]).toMatchObject({ status: 'succeeded', output: { ok: true } });
    expect(requests).toBe(1);
  });

  it('re-checks every redirect: one to a host the worker does not allow is refused before it is contacted', async () => {
    let deniedHits = 0;
    const deniedUrl = await listen(
      createServer((_, res) => (deniedHits++, res.end('{}'))),
      '127.0.0.2',
    );
    const allowedUrl = await listen(
      createServer((req, res) => {
        if (req.url === '/hop') res.writeHead(302, { Location: '/final' }).end();
        else if (req.url === '/final') res.end('{"output":"followed"}');
        else res.writeHead(307, { Location: `${deniedUrl}/admin` }).end();
      }),
    );
    const worker = await workerForTest({ config: configWith({}, { allowHosts: ['127.0.0.1'] }) });
    const result = await (
      await runForTest(
        {
          name: 'http-redirects',
          tasks: [
            { key: 'same-host', executor: { kind: 'http', url: `${allowedUrl}/hop` } },
            { key: 'elsewhere', executor: { kind: 'http', url: `${allowedUrl}/start` } },
          ],
        },
        worker,
      )
    ).result();
    const tasks = byKey(result.tasks);
    expect(tasks['same-host']).toMatchObject({ status: 'succeeded', output: 'followed' });
    expect(tasks.elsewhere).toMatchObject({ status: 'failed', attempts: 1 });
    expect(tasks.elsewhere.lastError).toContain(`refused: 127.0.0.2:${new URL(deniedUrl).port} is a loopback`);
    expect(deniedHits).toBe(0);
  });

  it('stops reading a 50 MB body at worker.http.maxBodyBytes and fails without retrying', async () => {
    let sent = 0;
    const url = await listen(
      createServer((_, res) => {
        const chunk = Buffer.alloc(64 * 1024, 0x61);
        const pump = () => {
          while (sent < 50 * 1024 * 1024) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        res.on('close', () => res.removeAllListeners('drain'));
        pump();
      }),
    );
    const worker = await workerForTest({ config: configWith({}, { allowHosts: ['127.0.0.1'] }) });
    const result = await (
      await runForTest(
        {
          name: 'http-body',
          retry: { maxAttempts: 3, backoffMs: 100 },
          tasks: [{ key: 'big', executor: { kind: 'http', url } }],
        },
        worker,
      )
    ).result();
    expect(result.tasks[0]).toMatchObject({ status: 'failed', attempts: 1 });
    expect(result.tasks[0].lastError).toContain('the response body is over 1048576 bytes (worker.http.maxBodyBytes)');
    expect(sent).toBeLessThan(50 * 1024 * 1024);
  });
});
