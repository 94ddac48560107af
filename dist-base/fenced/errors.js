"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.FencedStoreDriverMissing = exports.InvalidFencingToken = exports.FencedWriteRejected = void 0;
const errors_1 = require("../errors");
/** A write refused because a newer attempt has already written: the writer's lease is stale. */
class FencedWriteRejected extends errors_1.TeamrunError {
    resource;
    token;
    highestSeen;
    code = 'FENCED_WRITE_REJECTED';
    constructor(resource, token, highestSeen) {
        super(`fenced write to "${resource}" rejected: fencing token ${token} is older than the highest seen, ${highestSeen} ` +
            '(a newer attempt holds the lease; this writer must stop)');
        this.resource = resource;
        this.token = token;
        this.highestSeen = highestSeen;
        this.name = 'FencedWriteRejected';
    }
}
exports.FencedWriteRejected = FencedWriteRejected;
/** A fencing token that is not a positive integer (teamrun's tokens start at 1). */
class InvalidFencingToken extends errors_1.TeamrunError {
    raw;
    code = 'FENCED_INVALID_TOKEN';
    constructor(raw, where) {
        super(`${where}: fencing token must be a positive integer, got ${JSON.stringify(raw) ?? String(raw)}`);
        this.raw = raw;
        this.name = 'InvalidFencingToken';
    }
}
exports.InvalidFencingToken = InvalidFencingToken;
/** `teamrun/fenced` used where better-sqlite3 is not installed (an optional peer dependency of teamrun). */
class FencedStoreDriverMissing extends errors_1.TeamrunError {
    code = 'FENCED_SQLITE_MISSING';
    constructor() {
        super('teamrun/fenced needs the better-sqlite3 package: npm install better-sqlite3');
        this.name = 'FencedStoreDriverMissing';
    }
}
exports.FencedStoreDriverMissing = FencedStoreDriverMissing;
