"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.FencedStore = void 0;
exports.withFencedStore = withFencedStore;
const errors_1 = require("./errors");
const sqlite_1 = require("./sqlite");
const token_1 = require("./token");
/**
 * A key-value store in a SQLite file whose writes are fenced: a write carries the writer's
 * fencing token and lands only if that token is at least the highest one the resource has
 * seen. The check and the write are one statement inside an IMMEDIATE transaction, so
 * concurrent writers in different processes can never move a resource back to an older token.
 * Needs the better-sqlite3 package (an optional peer dependency): without it the constructor throws
 * `FencedStoreDriverMissing`, naming the package to install.
 */
class FencedStore {
    file;
    db;
    upsert;
    select;
    writeTx;
    constructor(file) {
        this.file = file;
        const Sqlite = (0, sqlite_1.sqliteDriver)();
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
        this.select = this.db.prepare('SELECT * FROM fenced_resources WHERE resource = ?');
        const tx = this.db.transaction((write) => {
            const before = this.select.get(write.resource);
            const changed = this.upsert.run(write).changes;
            if (changed === 0)
                throw new errors_1.FencedWriteRejected(write.resource, write.token, before.token);
            return { resource: write.resource, token: write.token, previousToken: before?.token ?? null };
        });
        this.writeTx = (write) => tx.immediate(write);
    }
    /** Writes `value` if `token` is at least the highest token seen; throws `FencedWriteRejected` otherwise. */
    write(write) {
        if (!write.resource)
            throw new Error('fenced write: resource name is empty');
        const token = (0, token_1.parseFencingToken)(write.token, `fenced write to "${write.resource}"`);
        return this.writeTx({
            resource: write.resource,
            token,
            value: write.value,
            writer: write.writer ?? null,
            written_at: Date.now(),
        });
    }
    read(resource) {
        const row = this.select.get(resource);
        if (!row)
            return null;
        return {
            resource: row.resource,
            token: row.token,
            value: row.value,
            writer: row.writer,
            writtenAt: row.written_at,
        };
    }
    close() {
        this.db.close();
    }
}
exports.FencedStore = FencedStore;
/** Opens `file`, runs `use`, closes: for one-shot writers such as a shell step. */
function withFencedStore(file, use) {
    const store = new FencedStore(file);
    try {
        return use(store);
    }
    finally {
        store.close();
    }
}
