import type { RunState, StatusKeyword } from '../contract';
/** The search attributes of CONTRACT.md; the dev server registers them, a cluster needs them registered once. */
export declare const TeamRunStatus: import("@temporalio/common/lib/search-attributes").SearchAttributeKey<"KEYWORD">;
export declare const TeamRunPendingAdjudications: import("@temporalio/common/lib/search-attributes").SearchAttributeKey<"INT">;
export declare const TeamRunBudgetStopped: import("@temporalio/common/lib/search-attributes").SearchAttributeKey<"BOOL">;
export declare const TeamName: import("@temporalio/common/lib/search-attributes").SearchAttributeKey<"KEYWORD">;
export declare const SEARCH_ATTRIBUTE_TYPES: {
    readonly TeamRunStatus: 'Keyword';
    readonly TeamRunPendingAdjudications: 'Int';
    readonly TeamRunBudgetStopped: 'Bool';
    readonly TeamName: 'Keyword';
};
/** The `TeamRunStatus` keyword for a run state (`awaiting_adjudication` -> `AwaitingAdjudication`). */
export declare function statusKeyword(state: RunState): StatusKeyword;
