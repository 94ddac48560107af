/**
 * Human decisions on tasks awaiting adjudication (`adjudicate`: retry, accept, reject), checked
 * in the order CONTRACT.md gives and applied once per decisionId, and approval tasks: asked for
 * when they become ready, decided by a person or by their `onTimeout`. The records and the
 * decision log are adjudications.ts's; this moves the tasks.
 */
import type { AdjudicateVerdict } from '../contract';
import type { RunContext } from './context';
import { type AdjudicateRequest } from '../plan/requests/control';
/** Every check of an `adjudicate` request, in the order the contract gives; throws `TeamControlError`. */
export declare function validateAdjudicate(run: RunContext, payload: unknown): AdjudicateRequest;
export declare function adjudicate(run: RunContext, payload: unknown, now: number): AdjudicateVerdict;
/**
 * Approval tasks that became ready go straight to adjudication: no activity, no teammate,
 * no reservation. Each request has a fencing token of its own, so a `retry` asks again.
 */
export declare function requestApprovals(run: RunContext, now: number): void;
/**
 * Approvals nobody decided within their `timeoutMs`: decided by their `onTimeout` (reject unless the plan says accept).
 */
export declare function expireApprovals(run: RunContext, now: number): void;
/** Rule change: an abort decides pending approvals at once (runs recorded before it waited for their timers). */
export declare const ABORT_REJECTS_APPROVALS = "teamrun-abort-rejects-approvals";
/**
 * An abort asks no human any more: each approval still waiting is rejected on the abort's behalf
 * (its dependents were skipped by the abort already), so the run closes instead of waiting for an
 * approver or a timer. Other adjudications (attempts the abort stopped) still wait for a person.
 */
export declare function rejectApprovalsOnAbort(run: RunContext, now: number): void;
/** The earliest time a pending approval times out, if any does. */
export declare function nextApprovalDeadline(run: RunContext): number | null;
