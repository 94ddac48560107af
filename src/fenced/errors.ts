import { TeamrunError } from '../errors';

/** A write refused because a newer attempt has already written: the writer's lease is stale. */
export class FencedWriteRejected extends TeamrunError {
  readonly code = 'FENCED_WRITE_REJECTED';

  constructor(
    readonly resource: string,
    readonly token: number,
    readonly highestSeen: number,
  ) {
    super(
      `fenced write to "${resource}" rejected: fencing token ${token} is older than the highest seen, ${highestSeen} ` +
        '(a newer attempt holds the lease; this writer must stop)',
    );
    this.name = 'FencedWriteRejected';
  }
}

/** A fencing token that is not a positive integer (teamrun's tokens start at 1). */
export class InvalidFencingToken extends TeamrunError {
  readonly code = 'FENCED_INVALID_TOKEN';

  constructor(
    readonly raw: unknown,
    where: string,
  ) {
    super(`${where}: fencing token must be a positive integer, got ${JSON.stringify(raw) ?? String(raw)}`);
    this.name = 'InvalidFencingToken';
  }
}

/** `teamrun/fenced` used where better-sqlite3 is not installed (an optional peer dependency of teamrun). */
export class FencedStoreDriverMissing extends TeamrunError {
  readonly code = 'FENCED_SQLITE_MISSING';

  constructor() {
    super('teamrun/fenced needs the better-sqlite3 package: npm install better-sqlite3');
    this.name = 'FencedStoreDriverMissing';
  }
}
