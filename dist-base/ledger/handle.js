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
exports.ledgerHandle = ledgerHandle;
exports.updateLedger = updateLedger;
exports.updateLedgerWithStart = updateLedgerWithStart;
exports.registerWithLedger = registerWithLedger;
/**
 * A ledger's workflow reached by its id, from Node: its handle, its updates, and an update sent
 * with a start (the ledger starts on first use). Shared by the operator's calls (client.ts) and
 * the run's activities (activities.ts, renewal.ts), so neither side imports the other. The ledger
 * continues as new too, so its updates go through `retryUpdate` like a team run's.
 */
const client_1 = require("@temporalio/client");
const ledger_1 = require("../plan/requests/ledger");
const update_retry_1 = require("../sdk/update-retry");
const lm = __importStar(require("./messages"));
function ledgerHandle(client, id) {
    return client.workflow.getHandle((0, ledger_1.ledgerWorkflowId)(id));
}
/** Sends a ledger's workflow `update`, again while a handover refuses it (under `updateId`, when given). */
function updateLedger(client, id, update, request, updateId) {
    const send = (tryId) => ledgerHandle(client, id).executeUpdate(update, { args: [request], updateId: tryId });
    return (0, update_retry_1.retryUpdate)(send, updateId);
}
/**
 * Starts the ledger's workflow if it is not running and sends it `update` in the same call, again
 * while a handover refuses it (a start operation serves one call only, so each try has its own).
 */
function updateLedgerWithStart(client, id, update, request, limits, options) {
    return (0, update_retry_1.retryUpdate)((updateId) => client.workflow.executeUpdateWithStart(update, {
        args: [request],
        updateId,
        startWorkflowOperation: withLedger(id, limits, options),
    }));
}
/** How the ledger's workflow starts if the call that reaches it finds it not running. */
function withLedger(id, limits, options) {
    const { taskQueue, continueAsNewAfterEvents } = options;
    return new client_1.WithStartWorkflowOperation(lm.LEDGER_WORKFLOW_TYPE, {
        workflowId: (0, ledger_1.ledgerWorkflowId)(id),
        taskQueue,
        args: [{ id, limits, ...(continueAsNewAfterEvents === undefined ? {} : { continueAsNewAfterEvents }) }],
        workflowIdConflictPolicy: 'USE_EXISTING',
        staticSummary: `shared budget ${id}`,
    });
}
/** Registers a run with a ledger, starting the ledger (with no limits) if it does not exist yet. */
async function registerWithLedger(client, id, request, options) {
    return updateLedgerWithStart(client, id, lm.ledgerRegisterUpdate, request, {}, options);
}
