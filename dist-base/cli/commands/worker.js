"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.registerWorker = registerWorker;
const context_1 = require("../context");
function registerWorker(program) {
    program
        .command('worker')
        .description('run a worker against the configured Temporal (teamrun.yaml, a ' +
        'Temporal profile, TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE) until Ctrl-C')
        .option('--identity <name>', 'worker identity shown in the Web UI and in task holders (default: pid@host)')
        .action(async (options, command) => {
        const config = (0, context_1.configFrom)(command);
        // The worker's native runtime loads only for the commands that run one.
        const { runWorker } = require('../../worker/main');
        try {
            await runWorker({ config, identity: options.identity });
        }
        catch (err) {
            throw new context_1.CliError(`the worker for ${config.connection.address} (namespace ${config.connection.namespace}, task queue ` +
                `"${config.connection.taskQueue}") stopped: ${err.message}`);
        }
    });
}
