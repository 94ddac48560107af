import { TeamrunError } from '../errors';
/** A write refused because a newer attempt has already written: the writer's lease is stale. */
export declare class FencedWriteRejected extends TeamrunError {
    readonly resource: string;
    readonly token: number;
    readonly highestSeen: number;
    readonly code = "FENCED_WRITE_REJECTED";
    constructor(resource: string, token: number, highestSeen: number);
}
/** A fencing token that is not a positive integer (teamrun's tokens start at 1). */
export declare class InvalidFencingToken extends TeamrunError {
    readonly raw: unknown;
    readonly code = "FENCED_INVALID_TOKEN";
    constructor(raw: unknown, where: string);
}
/** `teamrun/fenced` used where better-sqlite3 is not installed (an optional peer dependency of teamrun). */
export declare class FencedStoreDriverMissing extends TeamrunError {
    readonly code = "FENCED_SQLITE_MISSING";
    constructor();
}
