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
/**
 * A key-value store in a SQLite file whose writes are fenced: a write carries the writer's
 * fencing token and lands only if that token is at least the highest one the resource has
 * seen. The check and the write are one statement inside an IMMEDIATE transaction, so
 * concurrent writers in different processes can never move a resource back to an older token.
 * Needs the better-sqlite3 package (an optional peer dependency): without it the constructor throws
 * `FencedStoreDriverMissing`, naming the package to install.
 */
export declare class FencedStore {
    readonly file: string;
    private readonly db;
    private readonly upsert;
    private readonly select;
    private readonly writeTx;
    constructor(file: string);
    /** Writes `value` if `token` is at least the highest token seen; throws `FencedWriteRejected` otherwise. */
    write(write: FencedWrite): FencedWriteResult;
    read(resource: string): FencedRecord | null;
    close(): void;
}
/** Opens `file`, runs `use`, closes: for one-shot writers such as a shell step. */
export declare function withFencedStore<T>(file: string, use: (store: FencedStore) => T): T;
