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
  python ??= execFileSync('bash', [path.join(root, 'scripts/python-env.sh')], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  })
    .trim()
    .split('\n')
    .pop()!;
  return python;
}

let goWorker: string | undefined;

/** The Go test worker (go/teamrunactivity/internal/testworker), built once into .teamrun/. */
export function goTestWorker(): string {
  if (!goWorker) {
    const out = path.join(root, '.teamrun', 'go-testworker');
    execFileSync('go', ['build', '-o', out, './internal/testworker'], {
      cwd: path.join(root, 'go/teamrunactivity'),
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    goWorker = out;
  }
  return goWorker;
}

export interface ForeignWorker {
  child: ChildProcess;
  identity: string;
  output(): string;
  exited: Promise<number | null>;
}

/**
 * A real worker process of another SDK on `taskQueue`, connected to the shared dev server: it is
 * ready once it prints `readyLine`; killed (SIGCONT first, in case the test froze it) when the test ends.
 */
async function spawnForeignWorker(
  command: string,
  args: string[],
  identity: string,
  readyLine: string,
  env: NodeJS.ProcessEnv = {},
): Promise<ForeignWorker> {
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...env, TEAMRUN_WORKER_IDENTITY: identity, PYTHONUNBUFFERED: '1' },
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
    `worker ${identity} to start`,
    () => {
      if (child.exitCode !== null) throw new Error(`worker ${identity} exited: ${out}`);
      return out.includes(readyLine);
    },
    60_000,
  );
  return { child, identity, output: () => out, exited };
}

/** A real Python worker (test/helpers/python-worker.py, the temporalio SDK). */
export function spawnPythonWorker(
  taskQueue: string,
  identity: string,
  markerDir: string,
  env: NodeJS.ProcessEnv = {},
): Promise<ForeignWorker> {
  const script = path.join(root, 'test/helpers/python-worker.py');
  return spawnForeignWorker(
    venvPython(),
    [script, temporalAddress(), taskQueue, identity, markerDir],
    identity,
    'python worker ready',
    env,
  );
}

/** A real Go worker (go/teamrunactivity/internal/testworker, the Go SDK). */
export function spawnGoWorker(
  taskQueue: string,
  identity: string,
  markerDir: string,
  env: NodeJS.ProcessEnv = {},
): Promise<ForeignWorker> {
  return spawnForeignWorker(
    goTestWorker(),
    [temporalAddress(), taskQueue, identity, markerDir],
    identity,
    'go worker ready',
    env,
  );
}
