import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';

/**
 * `.teamrun/` holds the dev server's database (every run's history, inputs and outputs) and its
 * log: readable by its owner only. Directories teamrun creates are 0700; a `.teamrun` that
 * exists already is tightened to 0700 too (a directory it did not create is left as it is).
 */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (path.basename(dir) === '.teamrun') chmodSync(dir, 0o700);
  const parent = path.dirname(dir);
  if (path.basename(parent) === '.teamrun') chmodSync(parent, 0o700);
}

/** Creates a log file 0600, or makes an existing one 0600. */
export function ensurePrivateFile(file: string): void {
  if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
}

/** Makes a SQLite database and the files beside it (-wal, -shm, -journal) 0600 where they exist. */
export function restrictDatabase(dbFile: string): void {
  for (const file of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`, `${dbFile}-journal`]) {
    if (existsSync(file)) chmodSync(file, 0o600);
  }
}

/** Runs `start` (which spawns a process) under umask 077, so whatever that process creates is its owner's only. */
export function withPrivateUmask<T>(start: () => T): T {
  const previous = process.umask(0o077);
  try {
    return start();
  } finally {
    process.umask(previous);
  }
}
