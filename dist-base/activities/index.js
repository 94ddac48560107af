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
var __exportStar = (this && this.__exportStar) || function(m, exports) {
    for (var p in m) if (p !== "default" && !Object.prototype.hasOwnProperty.call(exports, p)) __createBinding(exports, m, p);
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.Redactor = exports.createLedgerActivities = exports.createActivities = void 0;
var run_task_1 = require("./run-task");
Object.defineProperty(exports, "createActivities", { enumerable: true, get: function () { return run_task_1.createActivities; } });
var activities_1 = require("../ledger/activities");
Object.defineProperty(exports, "createLedgerActivities", { enumerable: true, get: function () { return activities_1.createLedgerActivities; } });
__exportStar(require("../ledger/activity-interface"), exports);
__exportStar(require("./interface"), exports);
__exportStar(require("./executors"), exports);
var redact_1 = require("./redact");
Object.defineProperty(exports, "Redactor", { enumerable: true, get: function () { return redact_1.Redactor; } });
