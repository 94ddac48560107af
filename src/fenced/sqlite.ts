import type BetterSqlite3 from 'better-sqlite3';
import { FencedStoreDriverMissing } from './errors';

let driver: typeof BetterSqlite3 | undefined;

/**
 * better-sqlite3, loaded on the first store opened: it is an optional peer dependency, because it
 * compiles SQLite at install where no prebuilt binary can be fetched and only teamrun/fenced uses
 * it (Node 20 has no `node:sqlite`). Loading teamrun, its worker or its CLI never needs it.
 */
export function sqliteDriver(): typeof BetterSqlite3 {
  if (driver) return driver;
  try {
    driver = require('better-sqlite3') as typeof BetterSqlite3;
  } catch (err) {
    // Only the package itself missing; a broken install (its native binding, its own imports) says so itself.
    const missing = (err as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND' && /'better-sqlite3'/.test(String(err));
    throw missing ? new FencedStoreDriverMissing() : err;
  }
  return driver;
}

/** Whether `err` is SQLite refusing the file (not a database, locked, read-only): the caller's error, not a bug. */
export function isSqliteError(err: unknown): boolean {
  return driver !== undefined && err instanceof driver.SqliteError;
}
