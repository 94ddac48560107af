import type Database from 'better-sqlite3';
import { FencedWriteRejected } from './errors';
import { sqliteDriver } from './sqlite';
import { parseFencingToken } from './token';

export interface FencedWrite {
  resource: string;
  token: number;
  value: string;
  /** Who wrote it (e.g. the attempt's lease id); kept for people reading the resource. */
  writer?: string;
}

export interface FencedRecord {
  resource: string;
  token: number;
  value: string;
  writer: string | null;
  writtenAt: number;
}

export interface FencedWriteResult {
  resource: string;
  token: number;
  /** The token of the write this one replaced; null for the first write. */
  previousToken: number | null;
}

interface Row {
  resource: string;
  token: number;
  value: string;
  writer: string | null;
  written_at: number;
}

/**
 * A key-value store in a SQLite file whose writes are fenced: a write carries the writer's
 * fencing token and lands only if that token is at least the highest one the resource has
 * seen. The check and the write are one statement inside an IMMEDIATE transaction, so
 * concurrent writers in different processes can never move a resource back to an older token.
 * Needs the better-sqlite3 package (an optional peer dependency): without it the constructor throws
 * `FencedStoreDriverMissing`, naming the package to install.
 */
export class FencedStore {
  private readonly db: Database.Database;
  private readonly upsert: Database.Statement;
  private readonly select: Database.Statement<[string], Row>;
  private readonly writeTx: (write: Row) => FencedWriteResult;

  constructor(readonly file: string) {
    const Sqlite = sqliteDriver();
    this.db = new Sqlite(file);
    // Several writers in several processes: wait for the lock instead of failing with SQLITE_BUSY.
    this.db.pragma('busy_timeout = 10000');
    this.db.pragma('journal_mode = WAL');
    this.db.exec(`CREATE TABLE IF NOT EXISTS fenced_resources (
      resource   TEXT PRIMARY KEY,
      token      INTEGER NOT NULL,
      value      TEXT NOT NULL,
      writer     TEXT,
      written_at INTEGER NOT NULL
    )`);
    this.upsert = this.db.prepare(`INSERT INTO fenced_resources (resource, token, value, writer, written_at)
      VALUES (@resource, @token, @value, @writer, @written_at)
      ON CONFLICT (resource) DO UPDATE SET
        token = excluded.token, value = excluded.value, writer = excluded.writer, written_at = excluded.written_at
      WHERE excluded.token >= fenced_resources.token`);
    this.select = this.db.prepare<[string], Row>('SELECT * FROM fenced_resources WHERE resource = ?');
    const tx = this.db.transaction((write: Row): FencedWriteResult => {
      const before = this.select.get(write.resource);
      const changed = this.upsert.run(write).changes;
      if (changed === 0) throw new FencedWriteRejected(write.resource, write.token, before!.token);
      return { resource: write.resource, token: write.token, previousToken: before?.token ?? null };
    });
    this.writeTx = (write) => tx.immediate(write);
  }

  /** Writes `value` if `token` is at least the highest token seen; throws `FencedWriteRejected` otherwise. */
  write(write: FencedWrite): FencedWriteResult {
    if (!write.resource) throw new Error('fenced write: resource name is empty');
    const token = parseFencingToken(write.token, `fenced write to "${write.resource}"`);
    return this.writeTx({
      resource: write.resource,
      token,
      value: write.value,
      writer: write.writer ?? null,
      written_at: Date.now(),
    });
  }

  read(resource: string): FencedRecord | null {
    const row = this.select.get(resource);
    if (!row) return null;
    return {
      resource: row.resource,
      token: row.token,
      value: row.value,
      writer: row.writer,
      writtenAt: row.written_at,
    };
  }

  close(): void {
    this.db.close();
  }
}

/** Opens `file`, runs `use`, closes: for one-shot writers such as a shell step. */
export function withFencedStore<T>(file: string, use: (store: FencedStore) => T): T {
  const store = new FencedStore(file);
  try {
    return use(store);
  } finally {
    store.close();
  }
}
