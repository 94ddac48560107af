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
exports.TASK_STATUSES = exports.TeamRunBudgetStopped = exports.TeamRunPendingAdjudications = exports.TeamRunStatus = exports.TeamName = exports.SEARCH_ATTRIBUTE_TYPES = exports.connectionOptions = exports.ConfigSchema = exports.loadConfig = exports.TeamrunError = exports.planJsonSchema = exports.loadPlanFile = exports.formatProblems = exports.validatePlan = exports.PLAN_LIMITS = exports.BUILTIN_EXECUTOR_SCHEMAS = exports.UsageSchema = exports.BudgetSchema = exports.ExecutorSchema = exports.TaskSchema = exports.TeamPlanSchema = void 0;
/**
 * teamrun as a library: plans (schema, types, validation) and starting and steering runs.
 * Workers: `teamrun/worker`; the client alone: `teamrun/client`; fenced resources: `teamrun/fenced`.
 */
// A plan you write is a TeamPlanInput (defaults optional, what startTeamRun takes); TeamPlan is
// the plan after validation, every default filled in (what validatePlan and loadPlanFile return).
var schema_1 = require("./plan/schema");
Object.defineProperty(exports, "TeamPlanSchema", { enumerable: true, get: function () { return schema_1.TeamPlanSchema; } });
Object.defineProperty(exports, "TaskSchema", { enumerable: true, get: function () { return schema_1.TaskSchema; } });
Object.defineProperty(exports, "ExecutorSchema", { enumerable: true, get: function () { return schema_1.ExecutorSchema; } });
Object.defineProperty(exports, "BudgetSchema", { enumerable: true, get: function () { return schema_1.BudgetSchema; } });
Object.defineProperty(exports, "UsageSchema", { enumerable: true, get: function () { return schema_1.UsageSchema; } });
Object.defineProperty(exports, "BUILTIN_EXECUTOR_SCHEMAS", { enumerable: true, get: function () { return schema_1.BUILTIN_EXECUTOR_SCHEMAS; } });
Object.defineProperty(exports, "PLAN_LIMITS", { enumerable: true, get: function () { return schema_1.PLAN_LIMITS; } });
var validate_1 = require("./plan/validate");
Object.defineProperty(exports, "validatePlan", { enumerable: true, get: function () { return validate_1.validatePlan; } });
Object.defineProperty(exports, "formatProblems", { enumerable: true, get: function () { return validate_1.formatProblems; } });
var load_1 = require("./plan/load");
Object.defineProperty(exports, "loadPlanFile", { enumerable: true, get: function () { return load_1.loadPlanFile; } });
var json_schema_1 = require("./plan/json-schema");
Object.defineProperty(exports, "planJsonSchema", { enumerable: true, get: function () { return json_schema_1.planJsonSchema; } });
__exportStar(require("./client"), exports);
var errors_1 = require("./errors");
Object.defineProperty(exports, "TeamrunError", { enumerable: true, get: function () { return errors_1.TeamrunError; } });
var config_1 = require("./config/config");
Object.defineProperty(exports, "loadConfig", { enumerable: true, get: function () { return config_1.loadConfig; } });
Object.defineProperty(exports, "ConfigSchema", { enumerable: true, get: function () { return config_1.ConfigSchema; } });
var connection_1 = require("./config/connection");
Object.defineProperty(exports, "connectionOptions", { enumerable: true, get: function () { return connection_1.connectionOptions; } });
var search_attributes_1 = require("./workflows/search-attributes");
Object.defineProperty(exports, "SEARCH_ATTRIBUTE_TYPES", { enumerable: true, get: function () { return search_attributes_1.SEARCH_ATTRIBUTE_TYPES; } });
Object.defineProperty(exports, "TeamName", { enumerable: true, get: function () { return search_attributes_1.TeamName; } });
Object.defineProperty(exports, "TeamRunStatus", { enumerable: true, get: function () { return search_attributes_1.TeamRunStatus; } });
Object.defineProperty(exports, "TeamRunPendingAdjudications", { enumerable: true, get: function () { return search_attributes_1.TeamRunPendingAdjudications; } });
Object.defineProperty(exports, "TeamRunBudgetStopped", { enumerable: true, get: function () { return search_attributes_1.TeamRunBudgetStopped; } });
var types_1 = require("./team/types");
Object.defineProperty(exports, "TASK_STATUSES", { enumerable: true, get: function () { return types_1.TASK_STATUSES; } });
