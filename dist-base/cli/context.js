"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.CliError = void 0;
exports.configFrom = configFrom;
exports.withClient = withClient;
exports.userFile = userFile;
exports.printJson = printJson;
const config_1 = require("../config/config");
const errors_1 = require("../errors");
/** The config, with the command line's global options applied over file and environment. */
function configFrom(command) {
    const options = command.optsWithGlobals();
    // Set for the whole process: the connection's credentials are read from the same profile later.
    if (options.profile)
        process.env.TEMPORAL_PROFILE = options.profile;
    const config = (0, config_1.loadConfig)(options.config);
    if (options.address)
        config.connection.address = options.address;
    if (options.namespace)
        config.connection.namespace = options.namespace;
    if (options.taskQueue)
        config.connection.taskQueue = options.taskQueue;
    return config;
}
/** Runs `fn` with a client for the command's config, closing its connection after, whatever happened. */
async function withClient(command, fn) {
    const { client, config } = await clientFrom(command);
    try {
        return await fn(client, config);
    }
    finally {
        await client.connection.close();
    }
}
async function clientFrom(command) {
    const config = configFrom(command);
    // The Temporal client loads only for the commands that talk to a server.
    const { connectClient } = require('../client');
    try {
        return { client: await connectClient(config), config };
    }
    catch (err) {
        const { CodecError } = require('../codec');
        if (err instanceof CodecError)
            throw new CliError(err.message);
        throw new CliError(`cannot reach Temporal at ${config.connection.address} ` +
            `(namespace ${config.connection.namespace}): ${err.message}\n` +
            'Start one with `teamrun dev`, or point TEMPORAL_ADDRESS, a Temporal profile ' +
            '(TEMPORAL_PROFILE) or teamrun.yaml at your cluster; `teamrun doctor` checks the setup.');
    }
}
/** An error meant for the user: printed without a stack, exit code 1 unless given. */
class CliError extends errors_1.TeamrunError {
    exitCode;
    code = 'cli_error';
    constructor(message, exitCode = 1) {
        super(message);
        this.exitCode = exitCode;
    }
}
exports.CliError = CliError;
/**
 * Reads or writes a file the user named: one that cannot be (ENOENT, EACCES, EISDIR, ...) is their
 * error, worded as Node words it. Only Node's system errors are turned; anything else stays a bug.
 */
function userFile(use) {
    try {
        return use();
    }
    catch (err) {
        const systemError = err instanceof Error && typeof err.syscall === 'string';
        throw systemError ? new CliError(err.message) : err;
    }
}
function printJson(value) {
    process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
