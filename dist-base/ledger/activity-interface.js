"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.LEDGER_FAILURE_TYPES = void 0;
exports.LEDGER_FAILURE_TYPES = {
    busy: 'TeamLedgerBusy',
    refused: 'TeamLedgerRefused',
};
