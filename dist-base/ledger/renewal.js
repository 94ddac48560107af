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
exports.renewLedgerSlot = renewLedgerSlot;
const activity_1 = require("@temporalio/activity");
const handle_1 = require("./handle");
const lm = __importStar(require("./messages"));
/**
 * Keeps an attempt's ledger slot alive while the attempt runs: a `renew` signal now and every
 * `renewEveryMs`. An attempt whose worker dies stops renewing, and the ledger frees the slot
 * when its lease runs out. Returns the function that stops renewing.
 */
function renewLedgerSlot(client, lease) {
    const log = activity_1.Context.current().log;
    const handle = (0, handle_1.ledgerHandle)(client, lease.ledgerId);
    const renew = () => {
        handle.signal(lm.ledgerRenewSignal, { attemptId: lease.attemptId }).catch((err) => {
            // A missed renewal is tolerated (the lease outlives two periods); the next one may land.
            log.warn('ledger slot renewal failed', {
                ledgerId: lease.ledgerId,
                attemptId: lease.attemptId,
                error: String(err),
            });
        });
    };
    renew();
    const timer = setInterval(renew, lease.renewEveryMs);
    return () => clearInterval(timer);
}
