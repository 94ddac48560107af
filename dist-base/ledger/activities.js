"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
Object.defineProperty(exports, "__esModule", { value: true });
exports.createLedgerActivities = createLedgerActivities;
const activity_1 = require("@temporalio/activity");
const common_1 = require("@temporalio/common");
const client_1 = require("@temporalio/client");
const handle_1 = require("./handle");
const lm = __importStar(require("./messages"));
const activity_interface_1 = require("./activity-interface");
/** How often a ledger call heartbeats while the ledger answers (so a crash or a cancel is seen quickly). */
const HEARTBEAT_EVERY_MS = 1_000;
/** The activities a team run uses to talk to its shared ledger workflow, through `client`. */
function createLedgerActivities(deps) {
    const { client } = deps;
    return {
        async ledgerRegister({ ledgerId, workflowId, name }) {
            const taskQueue = activity_1.Context.current().info.taskQueue;
            const verdict = await heartbeating((0, handle_1.registerWithLedger)(client, ledgerId, { workflowId, name }, { taskQueue }));
            return { exhausted: verdict.exhausted };
        },
        async ledgerAcquire({ ledgerId, refuseRecovery, ...request }) {
            // Told at once (not waited for) when the caller wants to say why it waits.
            const retryable = (reason, wait) => wait && !(refuseRecovery && reason === 'recovery-required');
            let verdict;
            try {
                verdict = await heartbeating((0, handle_1.updateLedger)(client, ledgerId, lm.ledgerAcquireUpdate, request));
            }
            catch (err) {
                throw refusalOf(err, retryable) ?? err;
            }
            if (!verdict.ok)
                throw refusal(verdict.reason, retryable(verdict.reason, verdict.retryable), verdict.message);
            return { expiresAt: verdict.expiresAt };
        },
        async ledgerExtend({ ledgerId, ...request }) {
            // One update id per extension: a retried activity finds the ledger's answer instead of asking twice.
            const updateId = `extend:${request.attemptId}:${request.extensionId}`;
            let verdict;
            try {
                verdict = await heartbeating((0, handle_1.updateLedger)(client, ledgerId, lm.ledgerExtendUpdate, request, updateId));
            }
            catch (err) {
                throw refusalOf(err, () => false) ?? unsupported(err, ledgerId) ?? err;
            }
            if (!verdict.ok)
                throw refusal(verdict.reason, false, verdict.message);
            return { reservation: verdict.reservation };
        },
        async ledgerSettle({ ledgerId, ...request }) {
            const verdict = await heartbeating((0, handle_1.updateLedger)(client, ledgerId, lm.ledgerSettleUpdate, request));
            return { duplicate: verdict.duplicate };
        },
        async ledgerUnregister({ ledgerId, workflowId }) {
            await heartbeating((0, handle_1.updateLedger)(client, ledgerId, lm.ledgerUnregisterUpdate, { workflowId }));
        },
    };
}
/** The ledger's validator refused the acquire: a wait becomes a retryable failure, a spent limit a final one. */
function refusalOf(err, retryable) {
    if (!(err instanceof client_1.WorkflowUpdateFailedError))
        return null;
    const cause = err.cause;
    if (!(cause instanceof activity_1.ApplicationFailure) || cause.type !== lm.LEDGER_REFUSED)
        return null;
    const details = cause.details?.[0];
    const reason = details?.reason ?? 'max-concurrent';
    return refusal(reason, retryable(reason, details?.retryable ?? true), cause.message);
}
/**
 * The ledger's workflow refused the update itself: one of an older version has no `extend` ("No registered handler
 * for update"). Asking again cannot help: the extension is refused, so the run stops the attempt rather than wait.
 */
function unsupported(err, ledgerId) {
    if (!(err instanceof client_1.WorkflowUpdateFailedError))
        return null;
    const why = err.cause instanceof Error ? err.cause.message : String(err.cause);
    return refusal('unsupported', false, `ledger ${ledgerId} cannot grant extensions: ${why}`);
}
/**
 * Refusals are the ledger doing its job, not errors of the worker: benign failures are logged
 * at debug level instead of as warnings with a stack (waiting for a slot retries often).
 */
function refusal(reason, retryable, message) {
    const category = common_1.ApplicationFailureCategory.BENIGN;
    if (retryable)
        return activity_1.ApplicationFailure.create({ type: activity_interface_1.LEDGER_FAILURE_TYPES.busy, message, nonRetryable: false, category });
    return activity_1.ApplicationFailure.create({
        type: activity_interface_1.LEDGER_FAILURE_TYPES.refused,
        message,
        nonRetryable: true,
        details: [{ reason, message }],
        category,
    });
}
/** Waits for `work`, heartbeating meanwhile; a cancellation of the activity ends the wait. */
async function heartbeating(work) {
    const ctx = activity_1.Context.current();
    ctx.heartbeat();
    const timer = setInterval(() => ctx.heartbeat(), HEARTBEAT_EVERY_MS);
    // On cancellation the call is abandoned; its late outcome must not surface as unhandled.
    work.catch(() => undefined);
    try {
        return await Promise.race([work, ctx.cancelled]);
    }
    finally {
        clearInterval(timer);
    }
}
