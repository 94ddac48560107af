/**
 * `agentJournal`: one per agent task of a run (id from journalId), holding its transcript so that
 * the run's own history sees none of it. Attempts append each step through updates their worker's
 * gateway proves (src/agent/chain.ts: an open confirmed with that worker, then a hash chain) before
 * they act on it; the next attempt opens it and continues from the last step. It continues as new
 * when its history grows, and closes when an attempt finishes it, its run is no longer open, or nobody
 * writes for a long time (lifetime.ts).
 */
import {
  ApplicationFailure,
  allHandlersFinished,
  condition,
  patched,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import { TeamControlError } from '../plan/requests/control';
import { AttemptConfirmations } from '../team/governance';
import { confirmAttemptRequest } from '../workflows/stop-channel';
import type { AttemptProof } from '../contract';
import { journalGrown, journalLifetime } from './lifetime';
import { journalUpdate, mailHintSignal, steerUpdate, transcriptQuery } from './messages';
import { sha256, toHex } from './sha256';
import { JournalRefused, JournalState } from './state';
import { JOURNAL_PLANTED_PATCH, JOURNAL_PROOF_PATCH, journalId, type JournalSnapshot } from './types';

export async function agentJournal(given: JournalSnapshot): Promise<JournalSnapshot> {
  const info = workflowInfo();
  // Anyone who may start workflows may start this one: only a journal's own continue-as-new hands
  // it a transcript; a fresh one starts empty, and one under another task's id ends at once. A cron
  // schedule's next run and a retry also start with the run they follow set, and the planter's input:
  // a gateway starts neither, so neither is a continue-as-new of this journal's.
  const planted = info.cronSchedule !== undefined || info.retryPolicy !== undefined || info.attempt > 1;
  const continued = info.continuedFromExecutionRunId !== undefined && !(planted && patched(JOURNAL_PLANTED_PATCH));
  const fresh = !continued && patched(JOURNAL_PROOF_PATCH);
  if (fresh && info.workflowId !== journalId(given.runWorkflowId, given.key)) return given;
  const snapshot = fresh ? emptyJournal(given) : given;
  const state = new JournalState(snapshot);
  const confirmations = new AttemptConfirmations();
  let touched = 0;
  // Whether the history is due to continue as new, noted only in handlers (src/agent/lifetime.ts says why).
  let grew = false;
  const noteGrowth = () => {
    if (journalGrown()) grew = true;
  };
  const touch = () => {
    touched++;
    noteGrowth();
  };
  const refusal = <T>(check: () => T): T => {
    try {
      return check();
    } catch (err) {
      if (err instanceof JournalRefused) throw ApplicationFailure.nonRetryable(`${err.code}: ${err.message}`, err.code);
      if (err instanceof TeamControlError)
        throw ApplicationFailure.nonRetryable(`unproven: ${err.message}`, 'unproven');
      throw err;
    }
  };
  /**
   * The proof of an open (its anchor) or a steer (its text's SHA-256): the worker the request's
   * proof names must vouch for it, for this run, task and token.
   */
  const confirm = async (message: 'journal' | 'steer', proof: AttemptProof, fencingToken: number, anchor: string) => {
    confirmations.begin(proof);
    let yes = false;
    try {
      const { runWorkflowId: workflowId, key } = state.snapshot;
      yes = await confirmAttemptRequest(proof, { workflowId, key, fencingToken, message, anchor });
    } finally {
      confirmations.end(proof, yes);
    }
    if (!yes) {
      throw ApplicationFailure.nonRetryable(
        `unproven: ${message === 'journal' ? 'open' : 'steer'}: the worker on ${proof.queue} did not vouch ` +
          `for it (task "${state.snapshot.key}", token ${fencingToken}, nonce ${proof.nonce})`,
        'unproven',
      );
    }
  };
  setHandler(
    journalUpdate,
    async (request) => {
      touch();
      // Validators do not run on replay: a journal recorded before the proofs applies as it did then.
      if (!patched(JOURNAL_PROOF_PATCH)) return state.apply(request, true);
      if (request.op === 'open') await confirm('journal', request.attempt!, request.fencingToken, request.anchor!);
      // Checked again: a newer attempt may have opened while this one was confirmed.
      return refusal(() => state.apply(request));
    },
    {
      validator: (request) =>
        refusal(() => {
          state.validate(request);
          if (request.op === 'open') confirmations.check({ attempt: request.attempt, request }, 'journal open');
        }),
    },
  );
  setHandler(
    steerUpdate,
    async (request) => {
      touch();
      if (!patched(JOURNAL_PROOF_PATCH)) return state.steer(request, true);
      const digest = toHex(sha256(new TextEncoder().encode(request.text)));
      await confirm('steer', request.attempt!, request.fencingToken, digest);
      return refusal(() => state.steer(request));
    },
    {
      validator: (request) =>
        refusal(() => {
          state.validateSteer(request);
          confirmations.check({ attempt: request.attempt, request }, 'steer');
        }),
    },
  );
  setHandler(mailHintSignal, (hint) => {
    state.mailHint(hint?.upTo);
    noteGrowth();
  });
  setHandler(transcriptQuery, () => state.snapshot);
  await journalLifetime(
    state,
    () => touched,
    () => grew,
  );
  await condition(allHandlersFinished);
  return state.snapshot;
}

/** A new journal: whatever its starter put in it besides whose it is (a token, entries, steers) is dropped. */
function emptyJournal(given: JournalSnapshot): JournalSnapshot {
  return { runWorkflowId: given.runWorkflowId, key: given.key, fencingToken: 0, entries: [], turnOpen: 0, pending: [] };
}
