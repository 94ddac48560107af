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
exports.budgetLedger = budgetLedger;
const workflow_1 = require("@temporalio/workflow");
const rules_1 = require("./rules");
const ledger_1 = require("../plan/requests/ledger");
const lm = __importStar(require("./messages"));
const messages_1 = require("../workflows/messages");
/**
 * Renewals arrive as signals (a few events each), so the ledger hands over well before
 * Temporal's history warnings, and whenever the server suggests it.
 */
const CONTINUE_AS_NEW_AT_EVENTS = 4_000;
const MIN_CONTINUE_AS_NEW_AT_EVENTS = 100;
/**
 * `budgetLedger`: one shared budget for many team runs (one workflow per ledger id). Runs
 * acquire a slot before each attempt and settle it after; a charge that crosses a hard limit,
 * or an operator's `abortAll`, sends `abortRun` to every registered run. It runs until
 * cancelled or terminated, handing over to a fresh history with continue-as-new.
 */
async function budgetLedger(input) {
    const ledger = begin(input);
    const handOverAt = Math.max(MIN_CONTINUE_AS_NEW_AT_EVENTS, input.continueAsNewAfterEvents ?? CONTINUE_AS_NEW_AT_EVENTS);
    const handingOver = () => (0, workflow_1.workflowInfo)().continueAsNewSuggested || (0, workflow_1.workflowInfo)().historyLength >= handOverAt;
    const signalling = new Set();
    const cascade = (runs) => {
        const abort = ledger.status(Date.now()).lastAbort;
        const actor = (0, ledger_1.ledgerActor)(ledger.id);
        for (const workflowId of runs) {
            const sent = (0, workflow_1.getExternalWorkflowHandle)(workflowId)
                .signal(messages_1.abortRunSignal, { reason: abort?.reason, actor, requestId: `${actor}@${abort?.at ?? Date.now()}` })
                // The run is gone (finished or terminated without unregistering): nothing left to stop.
                .catch(() => ledger.forget(workflowId, Date.now()))
                .finally(() => signalling.delete(sent));
            signalling.add(sent);
        }
    };
    registerHandlers(ledger, cascade);
    for (;;) {
        ledger.expire(Date.now());
        (0, workflow_1.setCurrentDetails)(details(ledger.status(Date.now())));
        if (handingOver()) {
            await (0, workflow_1.condition)(workflow_1.allHandlersFinished);
            await Promise.all(signalling);
            return (0, workflow_1.continueAsNew)({
                continued: ledger.snapshot(),
                continueAsNewAfterEvents: input.continueAsNewAfterEvents,
            });
        }
        const seen = ledger.version;
        const changed = () => ledger.version !== seen || handingOver();
        // Renewals only push deadlines later, so they do not wake the loop: a timer that fires
        // early finds nothing expired and sets the next one.
        const deadline = ledger.nextDeadline();
        if (deadline === null)
            await (0, workflow_1.condition)(changed);
        else
            await (0, workflow_1.condition)(changed, Math.max(1, deadline - Date.now()));
    }
}
function begin(input) {
    if (input && typeof input === 'object' && 'continued' in input)
        return new rules_1.Ledger(input.continued);
    try {
        const id = (0, ledger_1.parseLedgerRequest)(ledger_1.LedgerIdSchema, input?.id, 'budgetLedger input id');
        const limits = (0, ledger_1.parseLedgerRequest)(ledger_1.LedgerLimitsSchema, input?.limits ?? {}, 'budgetLedger input limits');
        return rules_1.Ledger.create(id, limits, Date.now());
    }
    catch (err) {
        throw workflow_1.ApplicationFailure.nonRetryable(err.message, 'InvalidLedger');
    }
}
function registerHandlers(ledger, cascade) {
    const now = () => Date.now();
    const parse = (schema, payload, message) => {
        try {
            return (0, ledger_1.parseLedgerRequest)(schema, payload, message);
        }
        catch (err) {
            if (err instanceof ledger_1.LedgerRequestError)
                throw workflow_1.ApplicationFailure.nonRetryable(err.message, err.code);
            throw err;
        }
    };
    (0, workflow_1.setHandler)(lm.ledgerStatusQuery, () => ledger.status(now()), {
        description: 'Limits, attempts in flight, used, reserved and remaining budget, registered runs',
    });
    (0, workflow_1.setHandler)(lm.ledgerConfigureUpdate, (request) => {
        ledger.configure(parse(ledger_1.ConfigureRequestSchema, request, 'configure'), now());
        return ledger.status(now());
    }, {
        validator: (request) => {
            const refusal = ledger.checkConfigure(parse(ledger_1.ConfigureRequestSchema, request, 'configure'));
            if (refusal)
                throw workflow_1.ApplicationFailure.nonRetryable(`${lm.LOOSENING_REFUSED}: ${refusal}`, lm.LOOSENING_REFUSED);
        },
        description: 'Replace the limits, which only tighten unless an operator forces it: ' +
            '{ limits: { maxConcurrent?, maxTokens?, maxUsd?, windowMs? }, force?, actor? }',
    });
    (0, workflow_1.setHandler)(lm.ledgerResolveUpdate, (request) => {
        const resolved = ledger.resolve(parse(ledger_1.ResolveRequestSchema, request, 'resolve'), now());
        if (!resolved)
            throw workflow_1.ApplicationFailure.nonRetryable('nothing to resolve', lm.NOTHING_TO_RESOLVE);
        if (resolved.abort.length)
            cascade(resolved.abort);
        return resolved.verdict;
    }, {
        validator: (request) => {
            parse(ledger_1.ResolveRequestSchema, request, 'resolve');
            if (ledger.status(now()).recovery === null) {
                const message = `${lm.NOTHING_TO_RESOLVE}: ledger ${ledger.id} has no lost attempts waiting for recovery`;
                throw workflow_1.ApplicationFailure.nonRetryable(message, lm.NOTHING_TO_RESOLVE);
            }
        },
        description: 'Settle the lost attempts (usage unknown) so runs start attempts again: ' +
            '{ usage: { inputTokens?, ..., costUsd? } } or { release: true } (their reservations charged), with { actor }',
    });
    (0, workflow_1.setHandler)(lm.ledgerRegisterUpdate, (request) => ledger.register(parse(ledger_1.RegisterRequestSchema, request, 'register'), now()), {
        validator: (request) => void parse(ledger_1.RegisterRequestSchema, request, 'register'),
        description: 'Register a team run, so a cascade abort reaches it: { workflowId, name? }',
    });
    (0, workflow_1.setHandler)(lm.ledgerUnregisterUpdate, (request) => ledger.unregister(parse(ledger_1.UnregisterRequestSchema, request, 'unregister'), now()), {
        validator: (request) => void parse(ledger_1.UnregisterRequestSchema, request, 'unregister'),
        description: 'Forget a team run that finished: { workflowId }',
    });
    (0, workflow_1.setHandler)(lm.ledgerAcquireUpdate, (request) => ledger.acquire(parse(ledger_1.AcquireRequestSchema, request, 'acquire'), now()), {
        // A refusal is decided here, so the many retries of a waiting attempt never reach history.
        validator: (request) => {
            const refusal = ledger.check(parse(ledger_1.AcquireRequestSchema, request, 'acquire'), now());
            if (refusal) {
                throw workflow_1.ApplicationFailure.create({
                    type: lm.LEDGER_REFUSED,
                    message: refusal.message,
                    nonRetryable: true,
                    details: [{ reason: refusal.reason, retryable: refusal.retryable }],
                });
            }
        },
        description: 'A slot and a reservation for one attempt: { attemptId, workflowId, reservation: { tokens, usd }, leaseMs }',
    });
    (0, workflow_1.setHandler)(lm.ledgerExtendUpdate, (request) => ledger.extend(parse(ledger_1.ExtendRequestSchema, request, 'extend'), now()), {
        // Refused here, like an acquire: a refused extension leaves no trace in the ledger's history.
        validator: (request) => {
            const refusal = ledger.checkExtend(parse(ledger_1.ExtendRequestSchema, request, 'extend'), now());
            if (refusal) {
                throw workflow_1.ApplicationFailure.create({
                    type: lm.LEDGER_REFUSED,
                    message: refusal.message,
                    nonRetryable: true,
                    details: [{ reason: refusal.reason, retryable: false }],
                });
            }
        },
        description: "Grow a running attempt's slot by what its run granted it more, if the limits allow: " +
            '{ attemptId, extensionId, extension: { tokens, usd } }',
    });
    (0, workflow_1.setHandler)(lm.ledgerSettleUpdate, (request) => {
        const { abort, ...verdict } = ledger.settle(parse(ledger_1.SettleRequestSchema, request, 'settle'), now());
        if (abort.length)
            cascade(abort);
        return verdict;
    }, {
        validator: (request) => void parse(ledger_1.SettleRequestSchema, request, 'settle'),
        description: 'Charge an attempt and free its slot, once per attempt: { attemptId, usage }',
    });
    (0, workflow_1.setHandler)(lm.ledgerAbortAllUpdate, (request) => {
        const verdict = ledger.abortAll(parse(ledger_1.AbortAllRequestSchema, request ?? {}, 'abortAll'), now());
        cascade(verdict.runs);
        return verdict;
    }, {
        validator: (request) => void parse(ledger_1.AbortAllRequestSchema, request ?? {}, 'abortAll'),
        description: 'Abort every registered run now: { reason?, actor? }',
    });
    (0, workflow_1.setHandler)(lm.ledgerRenewSignal, (request) => {
        const parsed = ledger_1.RenewRequestSchema.safeParse(request);
        if (parsed.success)
            ledger.renew(parsed.data.attemptId, now());
    }, { description: "Keep an attempt's slot: { attemptId }" });
}
function details(status) {
    const { limits, used, inFlight, exhausted, recovery } = status;
    const of = (max) => (max === undefined ? '' : ` of ${max}`);
    return [
        `**ledger ${status.id}**${exhausted ? ` · exhausted (${exhausted.reason})` : ''}`,
        ...(recovery
            ? [
                `recovery required: ${recovery.count} lost attempt(s), usage unknown; no run starts an attempt until ` +
                    `\`teamrun ledger resolve ${status.id} --usage '{...}'\` (or \`--release\`)`,
            ]
            : []),
        `in flight: ${inFlight}${of(limits.maxConcurrent)} · tokens: ${used.tokens}${of(limits.maxTokens)} · usd: ` +
            `${used.usd}${of(limits.maxUsd)}`,
        `runs registered: ${status.runs.length}`,
    ].join('\n\n');
}
