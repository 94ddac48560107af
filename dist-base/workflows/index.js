"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.agentJournal = exports.budgetLedger = exports.teamRun = void 0;
var team_run_1 = require("./team-run");
Object.defineProperty(exports, "teamRun", { enumerable: true, get: function () { return team_run_1.teamRun; } });
var workflow_1 = require("../ledger/workflow");
Object.defineProperty(exports, "budgetLedger", { enumerable: true, get: function () { return workflow_1.budgetLedger; } });
var workflow_2 = require("../agent/workflow");
Object.defineProperty(exports, "agentJournal", { enumerable: true, get: function () { return workflow_2.agentJournal; } });
