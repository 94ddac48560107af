/** What the rest of the run sees of its side of a shared ledger (run-ledger.ts): workflow code. */
import { TeamrunError } from '../errors';
import type { AttemptOutcome, BudgetReason, Reservation } from '../team/types';
import type { Usage } from '../contract';
import type { LedgerAbortAnswer } from '../team/governance';

/** The attempt never started: its ledger refused it for good (`reason`), or it was stopped while it waited. */
export class AttemptNotStarted extends TeamrunError {
  readonly code = 'attempt_not_started';
  constructor(
    readonly reason: BudgetReason | null,
    message: string,
  ) {
    super(message);
    this.name = 'AttemptNotStarted';
  }
}

/**
 * The shared ledger's side of an extension, as extendReservation asks it, and of an abort that names the ledger as its
 * actor (`confirmAbort`); absent when the run has no ledger.
 */
export interface LedgerExtensions {
  confirmAbort(since: number, apply: (answer: LedgerAbortAnswer) => void): void;
  /**
   * Resolves null once the ledger granted it too (and `turns` more model calls, where its `maxTurns` counts them),
   * or the refusal's budget reason and message.
   */
  extend(
    attemptId: string,
    extension: { tokens: number; usd: number },
    answerBy?: number,
    turns?: number,
  ): Promise<{ reason: string; message: string } | null>;
}

/**
 * What the ledger is charged for a settled attempt: what it reported, or for a lost attempt whose spend has a bound
 * (team/lost-usage.ts) that bound, as the run's own budget charges it.
 */
export function attemptUsage(outcome: AttemptOutcome, bound: Reservation | null): Usage | null {
  if (bound) return { inputTokens: bound.tokens, costUsd: bound.usd, model: '(lost attempt, charged its bound)' };
  return ('usage' in outcome ? outcome.usage : undefined) ?? null;
}

/** Runs on blocks recorded before their first block was asked with their registration registered first (replay). */
export const LEDGER_REGISTER_BLOCK = 'teamrun-ledger-register-block';
/** Runs recorded before a governed run asked its ledger whether it sent an abort naming it took the abort as sent. */
export const LEDGER_ABORT_CONFIRMED = 'teamrun-ledger-abort-confirmed';
/** Runs recorded before the ledger granted extensions never asked it: their histories replay without the call. */
export const LEDGER_EXTENSIONS = 'teamrun-ledger-extensions';
/** Runs recorded before a slot held the attempt's grant asked the ledger to hold its estimate: they replay so. */
export const LEDGER_HOLDS_GRANT = 'teamrun-ledger-holds-grant';
/** Runs recorded before scopes were held on the ledger took them in the run only: they replay so. */
export const LEDGER_SCOPES = 'teamrun-ledger-scopes';
/**
 * Runs recorded before a ledger bounded its runs' additions, depth, wall clock and model calls (ledger/tree.ts) did
 * not ask it: they replay so.
 */
export const LEDGER_TREE = 'teamrun-ledger-tree';
