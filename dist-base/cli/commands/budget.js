"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.registerBudget = registerBudget;
const node_crypto_1 = require("node:crypto");
const context_1 = require("../context");
const options_1 = require("../options");
const control_1 = require("./control");
const ledger_1 = require("./ledger");
/** `teamrun budget tighten <run>`: lower a running run's limits; they never loosen. */
function registerBudget(program) {
    const budget = program.command('budget').description("a running run's budget: limits only tighten");
    budget
        .command('tighten <workflowId>')
        .description('lower limits of a running run (a limit the plan did not set may be added); a limit at or below what is ' +
        'used stops the run at once with that limit as the reason; raising one is refused (loosening_refused)')
        .option('--max-tasks <n>', 'attempts in all', options_1.intOption)
        .option('--max-tokens <n>', 'tokens (input + output + cache)', ledger_1.nonNegative)
        .option('--max-usd <n>', 'dollars', ledger_1.nonNegative)
        .option('--max-wall <duration>', 'wall time since the run started, e.g. 2h, 30m, 90s', ledger_1.windowOption)
        .option('--request-id <id>', 'id of this request (default: a fresh uuid)')
        .addOption((0, control_1.actorOption)())
        .option('--json', 'print the verdict as JSON')
        .action(async (workflowId, options, command) => {
        const request = {
            ...(options.maxTasks !== undefined && { maxTasks: options.maxTasks }),
            ...(options.maxTokens !== undefined && { maxTokens: options.maxTokens }),
            ...(options.maxUsd !== undefined && { maxUsd: options.maxUsd }),
            ...(options.maxWall !== undefined && { maxWallMs: options.maxWall }),
            requestId: options.requestId ?? (0, node_crypto_1.randomUUID)(),
            actor: options.actor ?? (0, control_1.defaultActor)(),
        };
        const verdict = await (0, control_1.withRun)(command, workflowId, (handle) => (0, control_1.update)(handle, 'tightenBudget', request));
        if (options.json)
            return (0, context_1.printJson)(verdict);
        const { budget: b } = verdict;
        const limits = Object.entries(b.limits)
            .filter(([name]) => name !== 'ledger')
            .map(([name, value]) => `${name} ${String(value)}`);
        process.stdout.write(`budget tightened: ${limits.join(', ')}` + (b.stopped ? `; the run stopped (${b.reason})` : '') + '\n');
    });
}
