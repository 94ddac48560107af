/**
 * How a run reads its ledger activities' failures: a refusal (its reason and message), and what Temporal said down
 * the cause chain. Workflow code: no Node imports.
 */
import { ActivityFailure, ApplicationFailure, TimeoutFailure } from '@temporalio/workflow';
import { LEDGER_FAILURE_TYPES, type LedgerRefusalDetails } from './activity-interface';
import { clip, RUN_LIMITS } from '../team/bounds';

/** The ledger's refusal inside an activity's failure; null when the failure is something else. */
export function refusalOf(err: unknown): LedgerRefusalDetails | null {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (!(cause instanceof ApplicationFailure) || cause.type !== LEDGER_FAILURE_TYPES.refused) return null;
  const details = cause.details?.[0] as LedgerRefusalDetails | undefined;
  return { reason: details?.reason ?? 'unknown', message: cause.message };
}

/**
 * What Temporal said, down its cause chain: "Activity task timed out" alone does not say which timeout ran out,
 * nor what the last try met (a heartbeat timeout under a busy worker, a ledger that refused updates).
 */
export function failureChain(err: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = err; e instanceof Error && parts.length < 4; e = e.cause) {
    parts.push(e instanceof TimeoutFailure ? `${e.message} (${e.timeoutType})` : e.message);
  }
  // Server and SDK text, bounded like a task's lastError: it reaches the update's outcome and the adjudication.
  return clip(parts.length ? parts.join(': ') : String(err), RUN_LIMITS.errorChars);
}
