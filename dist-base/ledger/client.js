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
exports.createLedger = createLedger;
exports.resolveLedger = resolveLedger;
exports.ledgerStatus = ledgerStatus;
exports.abortAllLedger = abortAllLedger;
const handle_1 = require("./handle");
const lm = __importStar(require("./messages"));
/**
 * Creates a ledger with these limits, or gives a running one these limits. Limits only tighten: a loosening is
 * refused (`loosening_refused`) unless `force` comes with the `actor` who forces it, which the ledger records.
 */
async function createLedger(client, id, limits, options) {
    const { force, actor, ...start } = options;
    const request = { limits, ...(force ? { force } : {}), ...(actor ? { actor } : {}) };
    return (0, handle_1.updateLedgerWithStart)(client, id, lm.ledgerConfigureUpdate, request, limits, start);
}
/** Settles the ledger's lost attempts (recorded usage, or their reservations released as the charge). */
async function resolveLedger(client, id, request) {
    return (0, handle_1.updateLedger)(client, id, lm.ledgerResolveUpdate, request);
}
async function ledgerStatus(client, id) {
    return (0, handle_1.ledgerHandle)(client, id).query(lm.ledgerStatusQuery);
}
async function abortAllLedger(client, id, request = {}) {
    return (0, handle_1.updateLedger)(client, id, lm.ledgerAbortAllUpdate, request);
}
