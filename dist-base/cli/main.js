#!/usr/bin/env node
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.version = void 0;
exports.buildProgram = buildProgram;
exports.main = main;
const commander_1 = require("commander");
const version_1 = require("./version");
Object.defineProperty(exports, "version", { enumerable: true, get: function () { return version_1.version; } });
/**
 * Commands that need neither a server nor a worker, registered alone when they are the one asked
 * for: the others load the Temporal client (~0.25 s) just by being registered.
 */
const LIGHT_COMMANDS = {
    validate: () => require('./commands/validate').registerValidate,
    schema: () => require('./commands/schema').registerSchema,
};
function buildProgram(only) {
    const program = new commander_1.Command('teamrun')
        .description('Run a team of workers through a graph of tasks, durably, on Temporal')
        .version((0, version_1.version)(), '-V, --version', 'print the version of teamrun')
        .option('-c, --config <file>', 'config file (default: ./teamrun.yaml, else ./temporal.yaml; or $TEAMRUN_CONFIG)')
        .option('--address <host:port>', 'Temporal frontend address (default: $TEMPORAL_ADDRESS, the Temporal profile, the config file)')
        .option('--namespace <ns>', 'Temporal namespace (default: $TEMPORAL_NAMESPACE, the Temporal profile, the config file)')
        .option('--profile <name>', 'Temporal connection profile of temporal.toml, as for the temporal CLI (default: $TEMPORAL_PROFILE)')
        .option('--task-queue <queue>', 'task queue (default: config, "teamrun")')
        .showHelpAfterError();
    // Loaded here, not at the top: `--version` answers without them.
    if (only && Object.hasOwn(LIGHT_COMMANDS, only))
        LIGHT_COMMANDS[only]()(program);
    else
        require('./commands').registerCommands(program);
    return program;
}
async function main(argv = process.argv) {
    // Answered before the commands (and the Temporal client they load) are read: a few ms, not ~0.3 s.
    if (argv.length === 3 && (argv[2] === '--version' || argv[2] === '-V')) {
        process.stdout.write(`${(0, version_1.version)()}\n`);
        return;
    }
    try {
        await buildProgram(argv[2]).parseAsync(argv);
    }
    catch (err) {
        const { classifyFailure } = require('./failure');
        const failure = classifyFailure(err);
        process.stderr.write(failure.output);
        process.exit(failure.exitCode);
    }
}
if (require.main === module)
    void main();
