import type { AcquireVerdict, LedgerAbortAllVerdict, LedgerExtendVerdict, LedgerLimits, LedgerRegisterVerdict, LedgerResolveVerdict, LedgerStatus, LedgerUnregisterVerdict, SettleVerdict } from '../contract';
import type { LedgerSnapshot } from './rules';
/** The shared budget's messages, defined once for the `budgetLedger` workflow and its callers. */
export declare const LEDGER_WORKFLOW_TYPE = "budgetLedger";
/** Failure type of an acquire the ledger refused (details: `{ reason, retryable }`). */
export declare const LEDGER_REFUSED = "LedgerRefused";
/** Failure types of an operator's call the ledger refused: new limits that loosen, a resolve with nothing lost. */
export declare const LOOSENING_REFUSED = "loosening_refused";
export declare const NOTHING_TO_RESOLVE = "nothing_to_resolve";
/**
 * What `budgetLedger` takes: an id and limits, or (from continue-as-new) the ledger so far.
 * `continueAsNewAfterEvents` hands over earlier than the default (tests, very busy ledgers).
 */
export type BudgetLedgerInput = ({
    id: string;
    limits: LedgerLimits;
} | {
    continued: LedgerSnapshot;
}) & {
    continueAsNewAfterEvents?: number;
};
export declare const ledgerStatusQuery: import("@temporalio/workflow").QueryDefinition<LedgerStatus, [], string>;
export declare const ledgerConfigureUpdate: import("@temporalio/common").UpdateDefinition<LedgerStatus, [{
    limits: {
        maxConcurrent?: number | undefined;
        maxTokens?: number | undefined;
        maxUsd?: number | undefined;
        windowMs?: number | undefined;
    };
    force?: boolean | undefined;
    actor?: string | undefined;
}], string>;
export declare const ledgerRegisterUpdate: import("@temporalio/common").UpdateDefinition<LedgerRegisterVerdict, [{
    workflowId: string;
    name?: string | undefined;
}], string>;
export declare const ledgerUnregisterUpdate: import("@temporalio/common").UpdateDefinition<LedgerUnregisterVerdict, [{
    workflowId: string;
}], string>;
export declare const ledgerAcquireUpdate: import("@temporalio/common").UpdateDefinition<AcquireVerdict, [{
    attemptId: string;
    workflowId: string;
    reservation: {
        tokens: number;
        usd: number;
    };
    leaseMs: number;
}], string>;
export declare const ledgerExtendUpdate: import("@temporalio/common").UpdateDefinition<LedgerExtendVerdict, [{
    attemptId: string;
    extensionId: string;
    extension: {
        tokens: number;
        usd: number;
    };
}], string>;
export declare const ledgerSettleUpdate: import("@temporalio/common").UpdateDefinition<Omit<SettleVerdict, "abort">, [{
    attemptId: string;
    usage: {
        inputTokens?: number | undefined;
        outputTokens?: number | undefined;
        cacheTokens?: number | undefined;
        model?: string | undefined;
        costUsd?: number | undefined;
        unpricedTokens?: number | undefined;
    } | null;
    lost?: {
        reservation: {
            tokens: number;
            usd: number;
        };
        workflowId: string;
    } | undefined;
}], string>;
export declare const ledgerResolveUpdate: import("@temporalio/common").UpdateDefinition<LedgerResolveVerdict, [{
    usage?: {
        inputTokens?: number | undefined;
        outputTokens?: number | undefined;
        cacheTokens?: number | undefined;
        model?: string | undefined;
        costUsd?: number | undefined;
        unpricedTokens?: number | undefined;
    } | undefined;
    release?: true | undefined;
    actor: string;
}], string>;
export declare const ledgerAbortAllUpdate: import("@temporalio/common").UpdateDefinition<LedgerAbortAllVerdict, [{
    reason?: string | undefined;
    actor?: string | undefined;
}], string>;
export declare const ledgerRenewSignal: import("@temporalio/workflow").SignalDefinition<[{
    attemptId: string;
}], string>;
