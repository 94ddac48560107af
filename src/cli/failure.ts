import { TeamrunError } from '../errors';
import { CliError } from './context';

/** How the CLI ends on an error that reached it: what it prints on stderr and its exit code. */
export type Failure =
  | { kind: 'user-error'; code: string; exitCode: number; output: string }
  | { kind: 'bug'; exitCode: number; output: string };

/**
 * A `TeamrunError` was thrown on purpose with a message written for the user: print that, no
 * stack. Anything else (a TypeError, a Node `ENOENT` nobody turned into a TeamrunError) is a bug
 * and shows its stack, so it can be reported.
 */
export function classifyFailure(err: unknown): Failure {
  if (err instanceof TeamrunError) {
    const exitCode = err instanceof CliError ? err.exitCode : 1;
    return { kind: 'user-error', code: err.code, exitCode, output: `teamrun: ${err.message}\n` };
  }
  return { kind: 'bug', exitCode: 1, output: `teamrun: ${(err as Error)?.stack ?? String(err)}\n` };
}
