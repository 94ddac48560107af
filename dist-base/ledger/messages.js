"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ledgerRenewSignal = exports.ledgerAbortAllUpdate = exports.ledgerResolveUpdate = exports.ledgerSettleUpdate = exports.ledgerExtendUpdate = exports.ledgerAcquireUpdate = exports.ledgerUnregisterUpdate = exports.ledgerRegisterUpdate = exports.ledgerConfigureUpdate = exports.ledgerStatusQuery = exports.NOTHING_TO_RESOLVE = exports.LOOSENING_REFUSED = exports.LEDGER_REFUSED = exports.LEDGER_WORKFLOW_TYPE = void 0;
const workflow_1 = require("@temporalio/workflow");
/** The shared budget's messages, defined once for the `budgetLedger` workflow and its callers. */
exports.LEDGER_WORKFLOW_TYPE = 'budgetLedger';
/** Failure type of an acquire the ledger refused (details: `{ reason, retryable }`). */
exports.LEDGER_REFUSED = 'LedgerRefused';
/** Failure types of an operator's call the ledger refused: new limits that loosen, a resolve with nothing lost. */
exports.LOOSENING_REFUSED = 'loosening_refused';
exports.NOTHING_TO_RESOLVE = 'nothing_to_resolve';
exports.ledgerStatusQuery = (0, workflow_1.defineQuery)('status');
exports.ledgerConfigureUpdate = (0, workflow_1.defineUpdate)('configure');
exports.ledgerRegisterUpdate = (0, workflow_1.defineUpdate)('register');
exports.ledgerUnregisterUpdate = (0, workflow_1.defineUpdate)('unregister');
exports.ledgerAcquireUpdate = (0, workflow_1.defineUpdate)('acquire');
exports.ledgerExtendUpdate = (0, workflow_1.defineUpdate)('extend');
exports.ledgerSettleUpdate = (0, workflow_1.defineUpdate)('settle');
exports.ledgerResolveUpdate = (0, workflow_1.defineUpdate)('resolve');
exports.ledgerAbortAllUpdate = (0, workflow_1.defineUpdate)('abortAll');
exports.ledgerRenewSignal = (0, workflow_1.defineSignal)('renew');
