/**
 * A governed run's (or a shared ledger's run's) check of an attempt's completion. Temporal lets anyone with write
 * rights on the namespace complete, fail or cancel a running activity by its ids (`Respond...ById`), and an attempt's
 * ids are public (`<key>#<token>` in history): a result alone is nobody's word. So such a run asks `runTask` to prove
 * what it answers (a one-time nonce of its worker's gateway, bound to the SHA-256 of the result, or of the failure)
 * and confirms it with that worker on its stop queue before it takes it, as it confirms an attempt's updates; once
 * that worker confirmed its signing key, its signed answers are taken on their signatures (signed-proofs.ts).
 * Anything but a yes (no proof, a no, a queue nobody polls) leaves the outcome unknown: the attempt is settled as a
 * lost lease (charged as one, leased again or adjudicated by the task's `onLeaseLost`), and the run records
 * `attempt:unproven-result`.
 */
import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  CancelledFailure,
  isCancellation,
  patched,
} from '@temporalio/workflow';
import { FAILURE_CONFIRMED, failureAnchor } from '../activities/interface';
import { sha256, toHex } from '../agent/sha256';
import type { TeamRun } from '../team/run';
import { AttemptProofSchema } from '../plan/requests/caller';
import { completedOutcome } from '../team/completion';
import { isPlainObject } from '../team/foreign-activity';
import type { AttemptOutcome } from '../team/types';
import { confirmAttemptRequest } from './stop-channel';
import { SIGNED_COMPLETIONS, keyConfirmed, signatureHolds, signedByConfirmedKey } from './signed-proofs';
import { SHARED_PROOF_KEYS, confirmingKey, keyBeingConfirmed } from './proof-keys';

/** Runs whose history began before completions were confirmed take every result as it comes (replay). */
export const COMPLETION_CONFIRMED = 'teamrun-completion-confirmed';

/** Runs on a shared ledger recorded before they confirmed their attempts' results took them as they came (replay). */
const LEDGER_RESULTS_CONFIRMED = 'teamrun-ledger-results-confirmed';

/**
 * `{ proveCompletion: true }` for the attempts of a governed run, and of any run on a shared ledger (asked once per
 * attempt, where it applies): the ledger charges the usage the run settles, and a charge past its limits aborts every
 * run on it, so no run on one takes a result or a failure as anybody's word.
 */
export function proveCompletions(run: TeamRun, onLedger: boolean): { proveCompletion?: true } {
  if (run.governed && patched(COMPLETION_CONFIRMED)) return { proveCompletion: true };
  return onLedger && patched(LEDGER_RESULTS_CONFIRMED) ? { proveCompletion: true } : {};
}

/**
 * The attempt's result as a completion once its worker confirmed it; else a lost lease's outcome. The result is
 * whatever completed the activity: its proof is checked for shape (AttemptProofSchema: a bounded queue name and
 * nonce) before the run asks anything with it or records any of it.
 */
export async function confirmedResult(
  run: TeamRun,
  claim: { key: string; fencingToken: number },
  result: unknown,
): Promise<AttemptOutcome> {
  const { proof, ...rest } = isPlainObject(result) ? result : { proof: undefined };
  const why = await unconfirmed(run, claim, proof, () => JSON.stringify(rest));
  return why === null ? completedOutcome(rest) : run.unprovenResult(claim.key, claim.fencingToken, why, Date.now());
}

/**
 * The attempt's failure or cancellation (`outcome`, as outcomeOf made it of `err`) once its worker confirmed it; else a
 * lost lease's outcome. Anyone can fail or cancel an activity by its ids, with any evidence (a usage the run would
 * charge, a type that fails the task for good): what a worker sent counts only with its proof (failureAnchor). What
 * the server decided (a timeout, an attempt no worker started) needs none.
 */
export async function confirmedFailure(
  run: TeamRun,
  claim: { key: string; fencingToken: number },
  err: unknown,
  outcome: AttemptOutcome,
): Promise<AttemptOutcome> {
  // A lost lease or an attempt that never started carries nothing the run takes from it.
  if (outcome.kind === 'lease-lost' || outcome.kind === 'not-started') return outcome;
  const cause = err instanceof ActivityFailure ? err.cause : undefined;
  const cancelled = cause instanceof CancelledFailure && outcome.kind === 'cancelled';
  if (!(cause instanceof ApplicationFailure) && !cancelled) return outcome;
  if (!patched(FAILURE_CONFIRMED)) return outcome;
  const details: unknown = cause.details?.[0];
  const { proof, ...evidence } = isPlainObject(details) ? details : { proof: undefined };
  const anchor = () =>
    cause instanceof ApplicationFailure
      ? failureAnchor({
          cancelled: false,
          type: cause.type,
          message: cause.message,
          nonRetryable: cause.nonRetryable === true,
          evidence,
        })
      : failureAnchor({ cancelled: true, evidence });
  // Asked whatever stops the attempt meanwhile: a cancellation the run asked for arrives in a cancelled scope, and
  // is settled with its evidence (its stop sends the task to adjudication in any case).
  const why = await CancellationScope.nonCancellable(() => unconfirmed(run, claim, proof, anchor));
  if (why !== null) return run.unprovenResult(claim.key, claim.fencingToken, why, Date.now());
  const { proof: _proven, ...taken } = outcome as AttemptOutcome & { proof?: unknown };
  return taken as AttemptOutcome;
}

/** Why the run does not take what the attempt's worker is said to have sent (`text`'s SHA-256); null: it does. */
async function unconfirmed(
  run: TeamRun,
  claim: { key: string; fencingToken: number },
  proof: unknown,
  text: () => string,
): Promise<string | null> {
  const { key, fencingToken } = claim;
  const parsed = AttemptProofSchema.safeParse(proof);
  if (!parsed.success) return proof === undefined ? 'it carries no proof of its worker' : 'its proof is malformed';
  const anchor = toHex(sha256(new TextEncoder().encode(text())));
  const request = { workflowId: run.workflowId, key, fencingToken, message: 'complete' as const, anchor };
  // Signed under the key its worker confirmed before: taken without asking again (signed-proofs.ts).
  const { signingKey } = parsed.data;
  const signed = signingKey !== undefined && patched(SIGNED_COMPLETIONS);
  if (signed && signedByConfirmedKey(run, parsed.data, request)) return null;
  // Under a key its messages confirmed, or its queue's key being confirmed now (proof-keys.ts): no round trip.
  const known = () => signedByConfirmedKey(run, parsed.data, request, true);
  if (signed && patched(SHARED_PROOF_KEYS)) {
    if (known()) return null;
    const pending = keyBeingConfirmed(run, parsed.data);
    if (pending) {
      await pending;
      if (known()) return null;
    }
  }
  try {
    const asked = signed ? { ...request, signingKey } : request;
    const signs = signed && signatureHolds(parsed.data, request);
    const yes = await confirmingKey(run, parsed.data, signs, async () => {
      const said = await confirmAttemptRequest(parsed.data, asked, { rethrowCancellation: true });
      if (said && signed) keyConfirmed(run, parsed.data, request);
      return said;
    });
    if (yes) return null;
    return `worker queue ${parsed.data.queue} did not confirm it`;
  } catch (err) {
    if (!isCancellation(err)) throw err;
    // Interrupted or aborted while the run asked: the stop is recorded on the attempt; what it sent stays unproven.
    return 'the attempt was stopped while its worker was asked';
  }
}
