/**
 * A governed run's check of an attempt's completion. Temporal lets anyone with write rights on the namespace complete
 * a running activity by its ids (`RespondActivityTaskCompletedById`), and an attempt's ids are public
 * (`<key>#<token>` in history): a result alone is nobody's word. So a governed run asks `runTask` to prove its result
 * (a one-time nonce of its worker's gateway, bound to the result's SHA-256) and confirms it with that worker on its
 * stop queue before it takes it, as it confirms an attempt's updates. Anything but a yes (no proof, a no, a queue
 * nobody polls) leaves the outcome unknown: the attempt is settled as a lost lease (charged as one, leased again or
 * adjudicated by the task's `onLeaseLost`), and the run records `attempt:unproven-result`.
 */
import { isCancellation, patched } from '@temporalio/workflow';
import { sha256, toHex } from '../agent/sha256';
import type { TeamRun } from '../team/run';
import { AttemptProofSchema } from '../plan/requests/caller';
import { completedOutcome } from '../team/completion';
import { isPlainObject } from '../team/foreign-activity';
import type { AttemptOutcome } from '../team/types';
import { confirmAttemptRequest } from './stop-channel';

/** Runs whose history began before completions were confirmed take every result as it comes (replay). */
export const COMPLETION_CONFIRMED = 'teamrun-completion-confirmed';

/** `{ proveCompletion: true }` for the attempts of a governed run (asked once per attempt, where it applies). */
export function proveCompletions(run: TeamRun): { proveCompletion?: true } {
  return run.governed && patched(COMPLETION_CONFIRMED) ? { proveCompletion: true } : {};
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
  const { key, fencingToken } = claim;
  const { proof, ...rest } = isPlainObject(result) ? result : { proof: undefined };
  const parsed = AttemptProofSchema.safeParse(proof);
  let why = proof === undefined ? 'it carries no proof of its worker' : 'its proof is malformed';
  if (parsed.success) {
    const anchor = toHex(sha256(new TextEncoder().encode(JSON.stringify(rest))));
    const request = { workflowId: run.workflowId, key, fencingToken, message: 'complete' as const, anchor };
    try {
      if (await confirmAttemptRequest(parsed.data, request, { rethrowCancellation: true })) {
        return completedOutcome(rest);
      }
      why = `worker queue ${parsed.data.queue} did not confirm it`;
    } catch (err) {
      if (!isCancellation(err)) throw err;
      // Interrupted or aborted while the run asked: the stop is recorded on the attempt; its result stays unproven.
      why = 'the attempt was stopped while its worker was asked';
    }
  }
  return run.unprovenResult(key, fencingToken, why, Date.now());
}
