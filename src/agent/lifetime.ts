/**
 * How long a journal lives: until an attempt finishes it, or nobody writes for `JOURNAL_LIMITS.idleMs`,
 * or (since JOURNAL_RUN_CHECK_PATCH) its run is no longer open (since JOURNAL_QUIET_TIMER_PATCH: asked
 * `RUN_CHECK_EVERY_MS` after the last write, so still within that and one check of the run). A journal cannot
 * hear its run end (a
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
 * Since this patch a write does not wake the journal's wait (which cancelled and started its timer again: two events
 * a write): the timer runs out every `RUN_CHECK_EVERY_MS`, and the run is asked only when nobody wrote meanwhile.
 */
export const JOURNAL_QUIET_TIMER_PATCH = 'teamrun-journal-quiet-timer';

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

/** Returns once the journal should close; continues as new meanwhile when its history grows. */
export async function journalLifetime(
  state: { readonly finished: boolean; readonly snapshot: JournalSnapshot },
  touched: () => number,
  /** When the last write came (workflow time): a quiet journal asks its run `RUN_CHECK_EVERY_MS` after it. */
  touchedAt: () => number = () => Date.now(),
): Promise<void> {
  const checking = patched(JOURNAL_RUN_CHECK_PATCH);
  const quiet = checking && patched(JOURNAL_QUIET_TIMER_PATCH);
  const grown = () =>
    workflowInfo().historyLength >= JOURNAL_LIMITS.continueAsNewEvents || workflowInfo().continueAsNewSuggested;
  let lastWrite = Date.now();
  // Quiet: the later of the last write and the last check of the run; the next check is RUN_CHECK_EVERY_MS after it.
  let lastSign = lastWrite;
  for (;;) {
    const seen = touched();
    const idleLeft = JOURNAL_LIMITS.idleMs - (Date.now() - lastWrite);
    const since = quiet ? Date.now() - lastSign : 0;
    const wait = checking ? Math.max(1, Math.min(RUN_CHECK_EVERY_MS - since, idleLeft)) : JOURNAL_LIMITS.idleMs;
    const woke = await condition(() => state.finished || (!quiet && touched() !== seen) || grown(), wait);
    if (state.finished) return;
    if (woke) {
      if (touched() !== seen) lastWrite = Date.now();
      if (grown()) {
        await condition(allHandlersFinished);
        await continueAsNew<(snapshot: JournalSnapshot) => Promise<JournalSnapshot>>(state.snapshot);
      }
      continue;
    }
    // Written to while the timer ran: its attempt is alive; the run is asked RUN_CHECK_EVERY_MS after that write.
    if (quiet && touched() !== seen) {
      lastWrite = lastSign = touchedAt();
      continue;
    }
    if (!checking || Date.now() - lastWrite >= JOURNAL_LIMITS.idleMs) return;
    if (!(await runOpen(state.snapshot.runWorkflowId))) return;
    lastSign = Date.now();
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
