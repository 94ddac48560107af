"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.RESERVE_REFUSED_EXIT = void 0;
exports.registerReserve = registerReserve;
const attempt_env_1 = require("../attempt-env");
const context_1 = require("../context");
/** `teamrun reserve` exits with this when the run refused: the attempt is being stopped. */
exports.RESERVE_REFUSED_EXIT = 3;
function amount(text, flag, integer) {
    if (text === undefined)
        return undefined;
    const value = Number(text);
    if (!/^\d+(\.\d+)?$/.test(text) || !Number.isFinite(value) || (integer && !Number.isInteger(value)))
        throw new context_1.CliError(`${flag}: "${text}" is not a ${integer ? 'whole ' : ''}number of at least 0`);
    return value;
}
/** `reserve`: inside a task, ask the run for budget before spending it (the attempt's live reservation). */
function registerReserve(program) {
    program
        .command('reserve')
        .description('inside a task: reserve budget before spending it. Blocks until the run grants it (exit 0) or refuses ' +
        `(exit ${exports.RESERVE_REFUSED_EXIT}: the attempt is then stopped with TEAM_TASK_BUDGET_EXCEEDED). What was ` +
        'granted and not used is released when the attempt settles')
        .option('--tokens <n>', 'tokens to reserve')
        .option('--usd <x>', 'dollars to reserve')
        .option('--json', 'print the answer as JSON')
        .action(async (options) => {
        const tokens = amount(options.tokens, '--tokens', true);
        const usd = amount(options.usd, '--usd', false);
        if (tokens === undefined && usd === undefined)
            throw new context_1.CliError('give --tokens N, --usd X, or both');
        const gateway = (0, attempt_env_1.attemptFromEnv)() ? (0, attempt_env_1.gatewayFromEnv)() : null;
        if (!gateway) {
            throw new context_1.CliError("teamrun reserve runs inside a task: it asks the attempt's worker ($TEAMRUN_ATTEMPT_SOCKET), and there is " +
                'none here (a budget of a run is steered from outside with its limits, not reserved)');
        }
        try {
            const answer = await (0, attempt_env_1.askGateway)(gateway, 'reserve', {
                ...(tokens !== undefined ? { tokens } : {}),
                ...(usd !== undefined ? { usd } : {}),
            });
            if (options.json)
                (0, context_1.printJson)(answer);
        }
        catch (err) {
            if (err instanceof attempt_env_1.GatewayRefusal && err.refusal === 'TEAM_TASK_BUDGET_EXCEEDED')
                throw new context_1.CliError(err.message, exports.RESERVE_REFUSED_EXIT);
            throw err;
        }
    });
}
