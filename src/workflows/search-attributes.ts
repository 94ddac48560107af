import { defineSearchAttributeKey } from '@temporalio/common';
import type { RunState, SearchAttributeName, StatusKeyword } from '../contract';

/** The search attributes of CONTRACT.md; the dev server registers them, a cluster needs them registered once. */
export const TeamRunStatus = defineSearchAttributeKey('TeamRunStatus', 'KEYWORD');
export const TeamRunPendingAdjudications = defineSearchAttributeKey('TeamRunPendingAdjudications', 'INT');
export const TeamRunBudgetStopped = defineSearchAttributeKey('TeamRunBudgetStopped', 'BOOL');
export const TeamName = defineSearchAttributeKey('TeamName', 'KEYWORD');

export const SEARCH_ATTRIBUTE_TYPES = {
  TeamRunStatus: 'Keyword',
  TeamRunPendingAdjudications: 'Int',
  TeamRunBudgetStopped: 'Bool',
  TeamName: 'Keyword',
} as const satisfies Record<SearchAttributeName, string>;

const STATUS_VALUES: Record<RunState, StatusKeyword> = {
  running: 'Running',
  awaiting_adjudication: 'AwaitingAdjudication',
  succeeded: 'Succeeded',
  failed: 'Failed',
  aborted: 'Aborted',
  budget_stopped: 'BudgetStopped',
  unresolved: 'Unresolved',
};

/** The `TeamRunStatus` keyword for a run state (`awaiting_adjudication` -> `AwaitingAdjudication`). */
export function statusKeyword(state: RunState): StatusKeyword {
  return STATUS_VALUES[state];
}
