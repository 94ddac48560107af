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
exports.builtinExecutors = void 0;
exports.executorRegistry = executorRegistry;
const agent_1 = require("./agent");
const agent_cli_1 = require("./agent-cli");
const basic_1 = require("./basic");
const http_1 = require("./http");
const llm_1 = require("./llm");
const shell_1 = require("./shell");
__exportStar(require("./types"), exports);
/**
 * The kinds teamrun ships to run on a worker. A worker enables the ones its config lists, plus any
 * it is given in code.
 */
exports.builtinExecutors = {
    shell: shell_1.shellExecutor,
    http: http_1.httpExecutor,
    llm: llm_1.llmExecutor,
    agent: agent_1.agentExecutor,
    sleep: basic_1.sleepExecutor,
    noop: basic_1.noopExecutor,
    'agent-cli': agent_cli_1.agentCliExecutor,
};
function executorRegistry(enabled, custom = {}) {
    const registry = new Map();
    for (const kind of enabled)
        registry.set(kind, exports.builtinExecutors[kind]);
    for (const [kind, executor] of Object.entries(custom))
        registry.set(kind, executor);
    return registry;
}
