import type BetterSqlite3 from 'better-sqlite3';
/**
 * better-sqlite3, loaded on the first store opened: it is an optional peer dependency, because it
 * compiles SQLite at install where no prebuilt binary can be fetched and only teamrun/fenced uses
 * it (Node 20 has no `node:sqlite`). Loading teamrun, its worker or its CLI never needs it.
 */
export declare function sqliteDriver(): typeof BetterSqlite3;
/** Whether `err` is SQLite refusing the file (not a database, locked, read-only): the caller's error, not a bug. */
export declare function isSqliteError(err: unknown): boolean;
