import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { temporalBinary, waitFor } from '../helpers/env';
import { alive } from '../helpers/processes';

const root = path.resolve(__dirname, '..', '..');

/**
 * A process that starts a dev server the way the test runs' global setup does, prints the server's pid, and
 * stays; `killOwner` kills it with SIGKILL, as a timeout kills a hung test run.
 */
async function serverOwner(stopWithParent: boolean): Promise<{ pid: number; killOwner: () => Promise<void> }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-devserver-parent-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const script = `(async () => {
    const { freePort, startDevServer } = require(${JSON.stringify(path.join(root, 'src/devserver/server.ts'))});
    const server = await startDevServer({
      binary: ${JSON.stringify(temporalBinary())},
      port: await freePort(),
      dbFile: ${JSON.stringify(path.join(dir, 'dev.db'))},
      headless: true,
      stopWithParent: ${stopWithParent},
    });
    console.log('server pid ' + server.process.pid);
    setInterval(() => undefined, 1_000);
  })();`;
  const owner = spawn(process.execPath, ['--import', 'tsx', '-e', script], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  owner.stdout.setEncoding('utf8').on('data', (d: string) => (output += d));
  owner.stderr.setEncoding('utf8').on('data', (d: string) => (output += d));
  onTestFinished(() => void owner.kill('SIGKILL'));
  const pid = await waitFor(
    'the owner to start its server',
    () => {
      if (owner.exitCode !== null) throw new Error(`the owner exited: ${output}`);
      return Number(/server pid (\d+)/.exec(output)?.[1]) || null;
    },
    60_000,
  );
  onTestFinished(() => void (alive(pid) && process.kill(pid, 'SIGKILL')));
  expect(alive(pid)).toBe(true);
  const killOwner = async () => {
    const exited = new Promise((resolve) => owner.once('exit', resolve));
    owner.kill('SIGKILL');
    await exited;
  };
  return { pid, killOwner };
}

describe('a dev server started with stopWithParent', () => {
  it('goes when the process that started it is killed with SIGKILL; without the option it stays', async () => {
    const guarded = await serverOwner(true);
    const unguarded = await serverOwner(false);
    await Promise.all([guarded.killOwner(), unguarded.killOwner()]);
    await waitFor('the guarded server to stop', () => !alive(guarded.pid), 60_000, 100);
    // Both owners died at once; by the time the guarded server is gone, the other is what a killed test run used
    // to leave behind: the server, still running, its owner gone.
    expect(alive(unguarded.pid)).toBe(true);
  }, 120_000);
});
