import { ENCODING } from '../codec/aes-gcm';
import { TeamrunError } from '../errors';
import { CliError } from '../operator/context';

/** How the CLI ends on an error that reached it: what it prints on stderr and its exit code. */
export type Failure =
  | { kind: 'user-error'; code: string; exitCode: number; output: string }
  | { kind: 'bug'; exitCode: number; output: string };

/** How deep a cause chain is searched for a codec problem (the SDK wraps failures a few levels). */
const MAX_CAUSES = 10;

/**
 * A `TeamrunError` was thrown on purpose with a message written for the user: print that, no
 * stack. Anything else (a TypeError, a Node `ENOENT` nobody turned into a TeamrunError) is a bug
 * and shows its stack, so it can be reported. One exception: the SDK's own error for a payload
 * nothing here can decode, which every command that reads a run meets the same way.
 */
export function classifyFailure(err: unknown): Failure {
  if (err instanceof TeamrunError) {
    const exitCode = err instanceof CliError ? err.exitCode : 1;
    return { kind: 'user-error', code: err.code, exitCode, output: `teamrun: ${err.message}\n` };
  }
  if (encryptedWithoutCodec(err)) {
    return {
      kind: 'user-error',
      code: 'codec-not-configured',
      exitCode: 1,
      output:
        `teamrun: this run's payloads are encrypted (${ENCODING}) and the config teamrun read ` +
        `has no \`codec:\` section to decrypt them: add the worker's \`codec:\` (key ids, each key's ` +
        `file or env variable) to teamrun.yaml, or point --config / $TEAMRUN_CONFIG at the worker's ` +
        `config (docs/security.md)\n`,
    };
  }
  return { kind: 'bug', exitCode: 1, output: `teamrun: ${(err as Error)?.stack ?? String(err)}\n` };
}

/** The SDK's "Unknown encoding: binary/encrypted", here or in a cause: no codec was configured. */
function encryptedWithoutCodec(err: unknown): boolean {
  let current: unknown = err;
  for (let depth = 0; depth < MAX_CAUSES && current instanceof Error; depth++) {
    if (current.message.includes(`Unknown encoding: ${ENCODING}`)) return true;
    current = current.cause;
  }
  return false;
}
