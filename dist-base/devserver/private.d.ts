/**
 * `.teamrun/` holds the dev server's database (every run's history, inputs and outputs) and its
 * log: readable by its owner only. Directories teamrun creates are 0700; a `.teamrun` that
 * exists already is tightened to 0700 too (a directory it did not create is left as it is).
 */
export declare function ensurePrivateDir(dir: string): void;
/** Creates a log file 0600, or makes an existing one 0600. */
export declare function ensurePrivateFile(file: string): void;
/** Makes a SQLite database and the files beside it (-wal, -shm, -journal) 0600 where they exist. */
export declare function restrictDatabase(dbFile: string): void;
/** Runs `start` (which spawns a process) under umask 077, so whatever that process creates is its owner's only. */
export declare function withPrivateUmask<T>(start: () => T): T;
