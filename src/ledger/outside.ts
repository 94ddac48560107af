/**
 * `teamrun/ledger`: spending from a shared ledger outside a team run. A program that is not a team run (a script, a
 * background job, a tool making its own model calls) reserves from a ledger before it spends and settles what it
 * used after, under the rules a run's attempts follow: a reservation is granted or refused by the same admission
 * (limits, recovery, scopes), it lives while renewed, its usage is charged once, and unknown usage is charged as a
 * run's lost attempt is (the ledger then requires recovery where a spend limit is set).
 *
 * Who may: there is no worker to vouch for the request, so only one of the ledger's operators (the `--operators` it
 * was created with), named as `actor`, which the ledger's door checks before it records anything
 * (src/ledger/doors.ts). A ledger without operators refuses every outside reservation. It never starts a ledger:
 * one that does not exist refuses too (`ledger_not_found`).
 */
import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { LedgerLimitReason, LedgerStatus, SettleRequest, SettleVerdict } from '../contract';
import { TeamrunError } from '../errors';
import { LedgerIdSchema, parseLedgerRequest, LedgerRequestError } from '../plan/requests/ledger';
import type { Usage } from '../plan/schema';
import { ledgerHandle, updateLedger } from './handle';
import * as lm from './messages';

/** A reservation lives this long without a renewal unless the ledger's caller says otherwise. */
export const DEFAULT_OUTSIDE_LEASE_MS = 60_000;

/** How outside work shows in the ledger's slots and recovery: `outside:<actor>` stands where a run's id would. */
export const outsideHolder = (actor: string): string => `outside:${actor}`;

export interface OutsideLedgerOptions {
  /** Who spends: one of the ledger's operators. Recorded in each slot's holder (`outside:<actor>`). */
  actor: string;
  /** How long a reservation lives without a renewal (default 60 s; 1 s to the ledger's timer bound). */
  leaseMs?: number;
}

export interface OutsideReserveRequest {
  /** This piece of work's name: a reserve retried with the same id gets the same reservation (default: new). */
  workId?: string;
  tokens?: number;
  usd?: number;
  /** Scopes held with the reservation, exclusive with every run's and outside work's on the ledger. */
  scope?: string[];
}

/** What `reserve` answers: a reservation, or the ledger's refusal (`retryable`: waiting can help). */
export type OutsideReserveVerdict =
  | { granted: true; reservation: OutsideReservation }
  | { granted: false; reason: LedgerLimitReason | 'settled'; retryable: boolean; message: string };

/** What settling answers: whether it was settled before (then nothing is charged), what it charged. */
export type OutsideSettleVerdict = Omit<SettleVerdict, 'abort'>;

/**
 * A call the ledger refused outright: `forbidden` (the actor is not one of its operators, or it has none),
 * `ledger_not_found`, `invalid_ledger_request`, or the ledger's own failure type.
 */
export class OutsideLedgerRefused extends TeamrunError {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'OutsideLedgerRefused';
  }
}

/** Opens a ledger for work outside a team run, as `actor` (one of its operators). Nothing is sent yet. */
export function outsideLedger(client: Client, id: string, options: OutsideLedgerOptions): OutsideLedger {
  return new OutsideLedger(client, id, options);
}

export class OutsideLedger {
  private readonly leaseMs: number;

  constructor(
    private readonly client: Client,
    readonly id: string,
    private readonly options: OutsideLedgerOptions,
  ) {
    checked(() => parseLedgerRequest(LedgerIdSchema, id, 'ledger id'));
    this.leaseMs = options.leaseMs ?? DEFAULT_OUTSIDE_LEASE_MS;
  }

  /** Asks the ledger for a reservation (a slot with `tokens` and `usd` held); refused as a run's attempt would be. */
  async reserve(request: OutsideReserveRequest = {}): Promise<OutsideReserveVerdict> {
    const { actor } = this.options;
    const workId = request.workId ?? randomUUID();
    const acquire = {
      attemptId: `${outsideHolder(actor)}/${workId}`,
      workflowId: outsideHolder(actor),
      reservation: { tokens: request.tokens ?? 0, usd: request.usd ?? 0 },
      leaseMs: this.leaseMs,
      ...(request.scope ? { scope: request.scope, task: workId } : {}),
      outside: true as const,
      actor,
    };
    let verdict;
    try {
      verdict = await updateLedger(this.client, this.id, lm.ledgerAcquireUpdate, acquire);
    } catch (err) {
      const refusal = admissionRefusal(err);
      if (refusal) return { granted: false, ...refusal };
      throw this.refused(err);
    }
    if (!verdict.ok) return { granted: false, ...verdict };
    const reservation = new OutsideReservation(this, acquire.attemptId, acquire.reservation, verdict.expiresAt);
    return { granted: true, reservation };
  }

  /** The ledger's status (limits, used, reserved, slots, held scopes). */
  status(): Promise<LedgerStatus> {
    return ledgerHandle(this.client, this.id).query(lm.ledgerStatusQuery);
  }

  /** @internal */
  async send<R>(call: (client: Client) => Promise<R>): Promise<R> {
    return call(this.client).catch((err: unknown) => {
      throw this.refused(err);
    });
  }

  /** @internal */
  get actor(): string {
    return this.options.actor;
  }

  /** @internal */
  get lease(): number {
    return this.leaseMs;
  }

  private refused(err: unknown): unknown {
    if (err instanceof WorkflowNotFoundError) {
      return new OutsideLedgerRefused('ledger_not_found', `no ledger "${this.id}" (it is never started from outside)`);
    }
    if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure) {
      return new OutsideLedgerRefused(err.cause.type ?? 'refused', `ledger ${this.id}: ${err.cause.message}`);
    }
    return err;
  }
}

/** One reservation on the ledger: renew it while the work runs, settle it once when the work is done. */
export class OutsideReservation {
  constructor(
    private readonly ledger: OutsideLedger,
    readonly attemptId: string,
    readonly reserved: { tokens: number; usd: number },
    readonly expiresAt: number,
  ) {}

  /**
   * Keeps the reservation one lease longer, as its operator (a reservation already expired or settled stays so);
   * refused `forbidden` when the actor is not one of the ledger's operators.
   */
  async renew(): Promise<void> {
    const request = { attemptIds: [this.attemptId], actor: this.ledger.actor };
    await this.ledger.send((client) => updateLedger(client, this.ledger.id, lm.ledgerRenewSlotsUpdate, request));
  }

  /** Renews every third of the lease until the returned function is called (a missed renewal is tried again). */
  keepAlive(): () => void {
    const timer = setInterval(() => void this.renew().catch(() => undefined), Math.max(1, this.ledger.lease / 3));
    timer.unref?.();
    return () => clearInterval(timer);
  }

  /** Charges what the work used and frees the reservation; charged once, however often it is sent. */
  settle(usage: Usage | null): Promise<OutsideSettleVerdict> {
    return this.send({ attemptId: this.attemptId, usage });
  }

  /**
   * The work's usage is unknown (it crashed mid-call, its meter was lost): charged as a run's lost attempt is. With a
   * spend limit the ledger holds the reservation and requires recovery (`teamrun ledger resolve`); without, it
   * charges the reservation. A reservation that expires unsettled is settled so by the ledger itself.
   */
  settleLost(): Promise<OutsideSettleVerdict> {
    const lost = { reservation: this.reserved, workflowId: outsideHolder(this.ledger.actor) };
    return this.send({ attemptId: this.attemptId, usage: null, lost });
  }

  private send(request: SettleRequest): Promise<OutsideSettleVerdict> {
    // The actor rides beside the request's own fields, as a worker's proof does; the ledger's door checks it.
    const settle: SettleRequest & { actor: string } = { ...request, actor: this.ledger.actor };
    return this.ledger.send((client) => updateLedger(client, this.ledger.id, lm.ledgerSettleUpdate, settle));
  }
}

/** The ledger's admission refused the reservation (its validator): the reason, and whether waiting can help. */
function admissionRefusal(
  err: unknown,
): { reason: LedgerLimitReason | 'settled'; retryable: boolean; message: string } | null {
  if (!(err instanceof WorkflowUpdateFailedError) || !(err.cause instanceof ApplicationFailure)) return null;
  if (err.cause.type !== lm.LEDGER_REFUSED) return null;
  const details = err.cause.details?.[0] as { reason?: LedgerLimitReason; retryable?: boolean } | undefined;
  return {
    reason: details?.reason ?? 'max-concurrent',
    retryable: details?.retryable ?? true,
    message: err.cause.message,
  };
}

function checked<T>(parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    if (err instanceof LedgerRequestError) throw new OutsideLedgerRefused(err.code, err.message);
    throw err;
  }
}
