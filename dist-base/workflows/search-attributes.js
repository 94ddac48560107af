"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SEARCH_ATTRIBUTE_TYPES = exports.TeamName = exports.TeamRunBudgetStopped = exports.TeamRunPendingAdjudications = exports.TeamRunStatus = void 0;
exports.statusKeyword = statusKeyword;
const common_1 = require("@temporalio/common");
/** The search attributes of CONTRACT.md; the dev server registers them, a cluster needs them registered once. */
exports.TeamRunStatus = (0, common_1.defineSearchAttributeKey)('TeamRunStatus', 'KEYWORD');
exports.TeamRunPendingAdjudications = (0, common_1.defineSearchAttributeKey)('TeamRunPendingAdjudications', 'INT');
exports.TeamRunBudgetStopped = (0, common_1.defineSearchAttributeKey)('TeamRunBudgetStopped', 'BOOL');
exports.TeamName = (0, common_1.defineSearchAttributeKey)('TeamName', 'KEYWORD');
exports.SEARCH_ATTRIBUTE_TYPES = {
    TeamRunStatus: 'Keyword',
    TeamRunPendingAdjudications: 'Int',
    TeamRunBudgetStopped: 'Bool',
    TeamName: 'Keyword',
};
const STATUS_VALUES = {
    running: 'Running',
    awaiting_adjudication: 'AwaitingAdjudication',
    succeeded: 'Succeeded',
    failed: 'Failed',
    aborted: 'Aborted',
    budget_stopped: 'BudgetStopped',
    unresolved: 'Unresolved',
};
/** The `TeamRunStatus` keyword for a run state (`awaiting_adjudication` -> `AwaitingAdjudication`). */
function statusKeyword(state) {
    return STATUS_VALUES[state];
}
