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
