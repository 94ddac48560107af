import type { Command } from 'commander';
import {
  FencedWriteRejected,
  InvalidFencingToken,
  parseFencingToken,
  withFencedStore,
  type FencedStore,
} from '../../fenced';
import { isSqliteError } from '../../fenced/sqlite';
import { CliError, printJson } from '../../operator/context';

/** Exit code of a write refused for a stale token, so a shell step can tell it from other errors. */
export const FENCE_REJECTED_EXIT = 3;

interface WriteOptions {
  db: string;
  resource: string;
  token?: string;
  value: string;
  writer?: string;
}

export function registerFence(program: Command): void {
  const fence = program
    .command('fence')
    .description('a fenced resource in a SQLite file: writes carry a fencing token and stale ones are refused');

  fence
    .command('write')
    .description(
      `write a value if --token is at least the highest token the ` +
        `resource has seen; a stale token exits ${FENCE_REJECTED_EXIT}`,
    )
    .requiredOption('--db <file>', 'SQLite file holding the resources (created if missing)')
    .requiredOption('--resource <name>', 'resource name')
    .option('--token <n>', 'fencing token (default: $TEAMRUN_FENCING_TOKEN)')
    .requiredOption('--value <value>', 'value to write')
    .option('--writer <label>', 'who writes, kept with the value (default: $TEAMRUN_LEASE_ID)')
    .action((options: WriteOptions) => {
      try {
        const token = options.token
          ? parseFencingToken(options.token, '--token')
          : parseFencingToken(process.env.TEAMRUN_FENCING_TOKEN, 'no --token given, and $TEAMRUN_FENCING_TOKEN');
        const result = withStore(options.db, (store) =>
          store.write({
            resource: options.resource,
            token,
            value: options.value,
            writer: options.writer ?? process.env.TEAMRUN_LEASE_ID,
          }),
        );
        printJson({ ok: true, ...result });
      } catch (err) {
        if (err instanceof FencedWriteRejected) throw new CliError(`${err.code}: ${err.message}`, FENCE_REJECTED_EXIT);
        if (err instanceof InvalidFencingToken) throw new CliError(`${err.code}: ${err.message}`);
        throw err;
      }
    });

  fence
    .command('read')
    .description('print a resource as JSON: its value, the highest token seen and who wrote it (null if never written)')
    .requiredOption('--db <file>', 'SQLite file holding the resources')
    .requiredOption('--resource <name>', 'resource name')
    .action((options: { db: string; resource: string }) => {
      printJson(withStore(options.db, (store) => store.read(options.resource)));
    });
}

/**
 * The store in the user's --db file: one SQLite cannot use (not a database, locked, read-only) is
 * their error. better-sqlite3 missing is a TeamrunError naming the package, printed as it is.
 */
function withStore<T>(file: string, use: (store: FencedStore) => T): T {
  try {
    return withFencedStore(file, use);
  } catch (err) {
    throw isSqliteError(err) ? new CliError((err as Error).message) : err;
  }
}
