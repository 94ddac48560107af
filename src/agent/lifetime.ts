/**
 * How long a journal lives: until an attempt finishes it, or nobody writes for `JOURNAL_LIMITS.idleMs`,
 * or (since JOURNAL_RUN_CHECK_PATCH) its run is no longer open. A journal cannot hear its run end (a
 * run that failed, was terminated or closed with the task in adjudication tells it nothing), so while
 * nobody writes it asks, every `RUN_CHECK_EVERY_MS`, whether its run still runs, and closes when not.
 * It continues as new when its history grows.
 */
import {
  allHandlersFinished,
  condition,
  continueAsNew,
  patched,
  proxyActivities,
  workflowInfo,
} from '@temporalio/workflow';
import { JOURNAL_LIMITS, type JournalSnapshot } from './types';

/** Since this patch a journal checks its run while idle (one recorded before it waits out its idle time). */
export const JOURNAL_RUN_CHECK_PATCH = 'teamrun-journal-run-check';

/**
 * Since this patch a write does not wake the journal's wait: the wait's timer runs out (at most `RUN_CHECK_EVERY_MS`)
 * and a write seen then counts as made then. Before, each write cancelled the timer and started another: two events
 * in the journal's history for every agent step, about a quarter of what a step records.
 */
export const JOURNAL_QUIET_WAIT_PATCH = 'teamrun-journal-quiet-wait';

/** How often an idle journal asks whether its run is still open: it closes within this (and one check) of its run. */
export const RUN_CHECK_EVERY_MS = 30_000;

/** The activity a journal asks its run's state with (src/activities/agent-activities.ts). */
export interface JournalActivities {
  /** Whether the run (its latest execution) is still running; false when it closed or no longer exists. */
  journalRunOpen(runWorkflowId: string): Promise<boolean>;
}

const { journalRunOpen } = proxyActivities<JournalActivities>({
  startToCloseTimeout: '10s',
  retry: { maximumAttempts: 3 },
  summary: "is the journal's run still open",
});

/** Whether the journal's history is due to continue as new (its length, or the server's suggestion). */
export function journalGrown(): boolean {
  return workflowInfo().historyLength >= JOURNAL_LIMITS.continueAsNewEvents || workflowInfo().continueAsNewSuggested;
}

/**
 * Returns once the journal should close; continues as new meanwhile when its history grows. `grew`: whether a
 * handler (an activation that carries an event) found the history due. Since JOURNAL_QUIET_WAIT_PATCH the wait's wake
 * condition reads that, never the history's length itself: Temporal evaluates the condition in every activation,
 * also one that carries only an update its validator rejected, which leaves no event and so does not happen on
 * replay; a journal that woke there would fail every later replay as nondeterministic.
 */
export async function journalLifetime(
  state: { readonly finished: boolean; readonly snapshot: JournalSnapshot },
  touched: () => number,
  grew: () => boolean,
): Promise<void> {
  const checking = patched(JOURNAL_RUN_CHECK_PATCH);
  // Only where the run check is (a journal that waits out its whole idle time must hear each write).
  const quiet = checking && patched(JOURNAL_QUIET_WAIT_PATCH);
  const handOver = async () => {
    await condition(allHandlersFinished);
    await continueAsNew<(snapshot: JournalSnapshot) => Promise<JournalSnapshot>>(state.snapshot);
  };
  let lastWrite = Date.now();
  for (;;) {
    const seen = touched();
    const idleLeft = JOURNAL_LIMITS.idleMs - (Date.now() - lastWrite);
    const wait = checking ? Math.max(1, Math.min(RUN_CHECK_EVERY_MS, idleLeft)) : JOURNAL_LIMITS.idleMs;
    const woke = await condition(() => state.finished || (quiet ? grew() : touched() !== seen || journalGrown()), wait);
    if (state.finished) return;
    if (woke) {
      if (touched() !== seen) lastWrite = Date.now();
      if (journalGrown()) await handOver();
      continue;
    }
    // The timer ran out (an activation with its event): the history may have grown meanwhile.
    if (quiet && journalGrown()) await handOver();
    // A write during the wait keeps the journal open, counted from now (at most one wait late).
    if (quiet && touched() !== seen) {
      lastWrite = Date.now();
      continue;
    }
    if (!checking || Date.now() - lastWrite >= JOURNAL_LIMITS.idleMs) return;
    if (!(await runOpen(state.snapshot.runWorkflowId))) return;
  }
}

/** A check that could not be made (the server busy, no worker) counts as open: the next one asks again. */
async function runOpen(runWorkflowId: string): Promise<boolean> {
  try {
    return await journalRunOpen(runWorkflowId);
  } catch {
    return true;
  }
}
