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
exports.Publisher = void 0;
/**
 * What the run shows outside: the current details the Web UI renders (every step), the
 * search attributes operators filter on (only when one of them changed: each upsert is a
 * command in history), and its metrics and spans (telemetry.ts, no command at all).
 */
const workflow_1 = require("@temporalio/workflow");
const details_1 = require("./details");
const sa = __importStar(require("./search-attributes"));
const telemetry_1 = require("./telemetry");
class Publisher {
    run;
    links;
    ledger;
    published = '';
    telemetry;
    constructor(run, links, ledger = null) {
        this.run = run;
        this.links = links;
        this.ledger = ledger;
        this.telemetry = new telemetry_1.RunTelemetry(run, Date.now());
    }
    publish() {
        const { run } = this;
        this.telemetry.record(Date.now());
        const state = run.state();
        const budget = run.budgetView(Date.now());
        const key = `${state}|${run.pendingAdjudications}|${budget.stopped}`;
        const waiting = this.ledger?.waitingLine();
        (0, workflow_1.setCurrentDetails)((0, details_1.currentDetails)(run, Date.now(), this.links.recent) + (waiting ? `\n- ledger: ${waiting}` : ''));
        if (key === this.published)
            return;
        this.published = key;
        (0, workflow_1.upsertSearchAttributes)([
            { key: sa.TeamName, value: run.status(Date.now()).name },
            { key: sa.TeamRunStatus, value: sa.statusKeyword(state) },
            { key: sa.TeamRunPendingAdjudications, value: run.pendingAdjudications },
            { key: sa.TeamRunBudgetStopped, value: budget.stopped },
        ]);
    }
}
exports.Publisher = Publisher;
