/**
 * `agentJournal`: one per agent task of a run (id from journalId), holding its transcript so that
 * the run's own history sees none of it. Attempts append each step through fenced updates before
 * they act on it; the next attempt opens it and continues from the last step. It continues as new
 * when its history grows, and closes when an attempt finishes it or nobody writes for a long time.
 */
import {
  ApplicationFailure,
  allHandlersFinished,
  condition,
  continueAsNew,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import { journalUpdate, steerUpdate, transcriptQuery } from './messages';
import { JournalRefused, JournalState } from './state';
import { JOURNAL_LIMITS, type JournalSnapshot } from './types';

export async function agentJournal(snapshot: JournalSnapshot): Promise<JournalSnapshot> {
  const state = new JournalState(snapshot);
  let touched = 0;
  const refusal = (check: () => void) => {
    try {
      check();
    } catch (err) {
      if (err instanceof JournalRefused) throw ApplicationFailure.nonRetryable(`${err.code}: ${err.message}`, err.code);
      throw err;
    }
  };
  setHandler(
    journalUpdate,
    (request) => {
      touched++;
      return state.apply(request);
    },
    { validator: (request) => refusal(() => state.validate(request)) },
  );
  setHandler(
    steerUpdate,
    (request) => {
      touched++;
      return state.steer(request);
    },
    { validator: (request) => refusal(() => state.validateSteer(request)) },
  );
  setHandler(transcriptQuery, () => state.snapshot);
  for (;;) {
    const seen = touched;
    const grown = () =>
      workflowInfo().historyLength >= JOURNAL_LIMITS.continueAsNewEvents || workflowInfo().continueAsNewSuggested;
    const woke = await condition(() => state.finished || touched !== seen || grown(), JOURNAL_LIMITS.idleMs);
    if (state.finished || !woke) break;
    if (grown()) {
      await condition(allHandlersFinished);
      await continueAsNew<typeof agentJournal>(state.snapshot);
    }
  }
  await condition(allHandlersFinished);
  return state.snapshot;
}
