import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { temporalBinary, waitFor } from '../helpers/env';

const root = path.resolve(__dirname, '..', '..');

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * A process that starts a dev server the way the test runs' global setup does, prints the server's pid, and
 * stays; the test then kills it with SIGKILL, as a timeout kills a hung test run.
 */
async function serverOwnerKilled(stopWithParent: boolean): Promise<number> {
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
  owner.kill('SIGKILL');
  await new Promise((resolve) => owner.once('exit', resolve));
  return pid;
}

describe('a dev server started with stopWithParent', () => {
  it('goes when the process that started it is killed with SIGKILL; without the option it stays', async () => {
    const guarded = await serverOwnerKilled(true);
    await waitFor('the guarded server to stop', () => !alive(guarded), 20_000, 100);
    const unguarded = await serverOwnerKilled(false);
    // What a killed test run used to leave behind: the server, still running, its owner gone.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(alive(unguarded)).toBe(true);
  }, 120_000);
});
