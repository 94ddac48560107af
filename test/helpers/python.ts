import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { onTestFinished } from 'vitest';
import { temporalAddress, waitFor } from './env';

const root = path.resolve(__dirname, '..', '..');

let python: string | undefined;

/**
 * The project-local venv's python (.teamrun/venv, with temporalio and teamrun-activity), made by
 * the same script .ci/run calls when it is not there yet: `npm test` works on a fresh clone.
 */
export function venvPython(): string {
  python ??= execFileSync('bash', [path.join(root, 'scripts/python-env.sh')], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
    .trim()
    .split('\n')
    .pop()!;
  return python;
}

export interface PythonWorker {
  child: ChildProcess;
  identity: string;
  output(): string;
  exited: Promise<number | null>;
}

/**
 * A real Python worker process (test/helpers/python-worker.py) on `taskQueue`, connected to the
 * shared dev server; killed (SIGCONT first, in case the test froze it) when the test ends.
 */
export async function spawnPythonWorker(taskQueue: string, identity: string, markerDir: string): Promise<PythonWorker> {
  const child = spawn(venvPython(), [path.join(root, 'test/helpers/python-worker.py'), temporalAddress(), taskQueue, identity, markerDir], {
    cwd: root,
    env: { ...process.env, TEAMRUN_WORKER_IDENTITY: identity, PYTHONUNBUFFERED: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  onTestFinished(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGCONT');
    child.kill('SIGKILL');
    await exited;
  });
  await waitFor(
    `python worker ${identity} to start`,
    () => {
      if (child.exitCode !== null) throw new Error(`python worker exited: ${out}`);
      return out.includes('python worker ready');
    },
    60_000,
  );
  return { child, identity, output: () => out, exited };
}
