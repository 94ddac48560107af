import { execFile } from 'node:child_process';
import path from 'node:path';
import { temporalAddress } from './env';

const root = path.resolve(__dirname, '..', '..');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `teamrun <args>` as a child process against the shared dev server, as a user would. */
export function runCli(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [path.join(root, 'bin/teamrun.js'), ...args],
      {
        cwd: options.cwd ?? root,
        env: { ...process.env, TEMPORAL_ADDRESS: temporalAddress(), ...options.env },
        timeout: options.timeoutMs ?? 60_000,
      },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
        if (code === null) return reject(new Error(`teamrun ${args.join(' ')}: ${err!.message}\n${stderr}`));
        resolve({ code, stdout, stderr });
      },
    );
  });
}
