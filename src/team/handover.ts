/**
 * Owns the continue-as-new decision from history size and event count. Pure: it reads the history
 * figures it is given and never the run's state; the workflow does the handing over.
 */
/**
 * When a run hands over to a fresh workflow run (continue-as-new).
 *
 * The event count is teamrun's own bound: the plan's `continueAsNewAfterEvents` (default 8,000,
 * at most 10,000, under the 10,240 events at which Temporal warns). Temporal also suggests a
 * handover (`continueAsNewSuggested`), by default at 4,096 events or 4 MB of history. Following
 * the count half of that suggestion made a 2,000-task run hand over once where a bare fan-out
 * never does (a drain of everything in flight, then a restart), and a 1,000-teammate run hand
 * over every ~4,000 events, each time draining 1,000 attempts. So the suggestion is followed for
 * history size only: at `SUGGESTED_SIZE_BYTES` or more.
 */
export const SUGGESTED_SIZE_BYTES = 4 * 1024 * 1024;

export interface HistoryInfo {
  historyLength: number;
  historySize: number;
  continueAsNewSuggested: boolean;
}

/** `maxBytes`: the run's own bound on history size (`CONTINUE_AS_NEW_HISTORY_BYTES`), whatever Temporal suggests. */
export function handOverDue(info: HistoryInfo, afterEvents: number, maxBytes: number): boolean {
  if (info.historyLength >= afterEvents || info.historySize >= maxBytes) return true;
  return info.continueAsNewSuggested && info.historySize >= SUGGESTED_SIZE_BYTES;
}

/** The rule before issue 17 (any suggestion hands over), for runs whose history predates the change. */
export function handOverDueBefore17(info: HistoryInfo, afterEvents: number, maxBytes: number): boolean {
  return info.continueAsNewSuggested || info.historyLength >= afterEvents || info.historySize >= maxBytes;
}
