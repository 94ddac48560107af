/**
 * The run's word to its running agents that mail came for them: a `mailHint` signal to each one's journal
 * (src/agent), which hands it to the agent with its next `beginTurn`; the agent then reads its inbox before that
 * model call. A turn with no mail costs the run nothing (before this patch every agent turn peeked at the inbox
 * with a `readInbox` update). A journal that does not exist yet (its attempt has not opened it) misses the word:
 * an attempt reads its inbox at its first model call whatever the journal says.
 */
import { getExternalWorkflowHandle, patched } from '@temporalio/workflow';
import { mailHintSignal } from '../agent/messages';
import { journalId } from '../agent/types';
import type { TeamRun } from '../team/run';

/** Since this patch the run tells its agents' journals when mail came (a run recorded before sends nothing). */
export const MAIL_HINT_PATCH = 'teamrun-mail-hint';

/** Sends the hints due now; not awaited (a failed one, to a journal not opened yet, changes nothing). */
export function sendMailHints(run: TeamRun): void {
  const hints = run.mailHints();
  if (!hints.length || !patched(MAIL_HINT_PATCH)) return;
  for (const { key, upTo } of hints) {
    getExternalWorkflowHandle(journalId(run.workflowId, key))
      .signal(mailHintSignal, { upTo })
      .catch(() => undefined);
  }
}
