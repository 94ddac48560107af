/**
 * The run's event log as the contract states it: event types, the `events` query's page, and the
 * ISO twins every timestamp of a query answer carries. Shapes only; src/team/events.ts keeps the
 * log and src/workflows/iso-times.ts adds the twins.
 */

/** Event types a team run records. */
export type RunEventType =
  | 'run:start'
  | 'run:end'
  | 'run:abort-requested'
  | 'run:cancel-requested'
  | 'run:budget-exhausted'
  | 'run:adjudication-timeout'
  | 'run:continuing-as-new'
  | 'run:continued-as-new'
  | 'task:claimed'
  | 'task:completed'
  | 'task:failed'
  | 'task:skipped'
  | 'task:not-started'
  | 'task:interrupt-requested'
  | 'task:adjudication-required'
  | 'task:adjudicated'
  /** A settled task sent back to adjudication: `{ key, actor, reason, requestId, dependents }`. */
  | 'task:reopened'
  | 'task:added'
  /** A worker linked a run it started for the attempt (`linkRun`): `{ key, fencingToken, runId, linked }`. */
  | 'task:run-linked'
  /** The attempt ended; its linked run was sent its abort: `{ runId, code, sent, why? }` (docs/teams.md). */
  | 'task:linked-run-aborted'
  /** An attempt made no step for its `stallAfterMs` and was stopped: `{ key, fencingToken, reason }`. */
  | 'task:stalled'
  /**
   * The attempt took its task's scopes (`{ key, fencingToken, scope }`): in the run when it was claimed, and again
   * with `ledger` when its shared ledger admitted it (no attempt of another run on the ledger then holds an overlap).
   */
  | 'task:scope-acquired'
  /**
   * The attempt gave its scopes back (`{ key, fencingToken, scope, why }`, `why` how its lease ended): in the run when
   * its lease ended, and with `ledger` once the ledger freed them (its settlement landed; a dead attempt's expire
   * on the ledger when its slot's lease runs out, which only the ledger's own log records).
   */
  | 'task:scope-released'
  | 'lease:expired'
  | 'lease:changed'
  | 'lease:released'
  | 'attempt:stale-result'
  /**
   * An attempt's completion its worker did not confirm (`{ key, fencingToken, why }`), in a governed run: a result sent
   * by someone else (an activity completed by its ids), or one whose worker died before the run asked. Its outcome
   * is then unknown: it is settled as a lost lease.
   */
  | 'attempt:unproven-result'
  | 'control:rejected'
  | 'control:idempotent'
  | 'mailbox:sent'
  | 'mailbox:delivered'
  | 'mailbox:backpressure'
  | 'mailbox:pressure'
  | 'mailbox:compacted'
  | 'teammate:state'
  | 'teammate:idle'
  | 'hook:completed'
  | 'hook:failed';

/** One event: its sequence number, type and time, and fields of its own. */
export interface RunEvent {
  seq: number;
  type: RunEventType | (string & {});
  at: number;
  [field: string]: unknown;
}

/** The `events` query's argument: events with `seq > after`, at most `limit`. */
export interface EventsQuery {
  after?: number;
  limit?: number;
}

/** The `events` query's answer; `nextSeq` is where to continue (`after`). */
export interface EventsPage {
  events: RunEvent[];
  nextSeq: number;
  /** The run's place in a tree of teams (`root/key/key`), on a child run's pages only: its events happen there. */
  path?: string;
}

/** Fields holding the user's own data: never given ISO twins. */
type OpaqueField = 'output' | 'result' | 'usage' | 'limits' | 'plan' | 'executor';
type IsoTwin<K> = K extends 'at' | `${string}At` ? `${K}Iso` : never;

/**
 * A query answer as it arrives: beside each epoch-ms timestamp (`at`, `...At`) an ISO 8601 twin
 * (`atIso`, `startedAtIso`), present when the timestamp is set.
 */
export type WithIsoTimes<T> = T extends string | number | boolean | bigint | symbol | null | undefined
  ? T
  : T extends ReadonlyArray<infer U>
    ? WithIsoTimes<U>[]
    : T extends object
      ? { [K in keyof T]: K extends OpaqueField ? T[K] : WithIsoTimes<T[K]> } & {
          [K in keyof T as IsoTwin<K>]?: string;
        }
      : T;
