"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.FENCE_REJECTED_EXIT = void 0;
exports.registerFence = registerFence;
const fenced_1 = require("../../fenced");
const sqlite_1 = require("../../fenced/sqlite");
const context_1 = require("../context");
/** Exit code of a write refused for a stale token, so a shell step can tell it from other errors. */
exports.FENCE_REJECTED_EXIT = 3;
function registerFence(program) {
    const fence = program
        .command('fence')
        .description('a fenced resource in a SQLite file: writes carry a fencing token and stale ones are refused');
    fence
        .command('write')
        .description(`write a value if --token is at least the highest token the ` +
        `resource has seen; a stale token exits ${exports.FENCE_REJECTED_EXIT}`)
        .requiredOption('--db <file>', 'SQLite file holding the resources (created if missing)')
        .requiredOption('--resource <name>', 'resource name')
        .option('--token <n>', 'fencing token (default: $TEAMRUN_FENCING_TOKEN)')
        .requiredOption('--value <value>', 'value to write')
        .option('--writer <label>', 'who writes, kept with the value (default: $TEAMRUN_LEASE_ID)')
        .action((options) => {
        try {
            const token = options.token
                ? (0, fenced_1.parseFencingToken)(options.token, '--token')
                : (0, fenced_1.parseFencingToken)(process.env.TEAMRUN_FENCING_TOKEN, 'no --token given, and $TEAMRUN_FENCING_TOKEN');
            const result = withStore(options.db, (store) => store.write({
                resource: options.resource,
                token,
                value: options.value,
                writer: options.writer ?? process.env.TEAMRUN_LEASE_ID,
            }));
            (0, context_1.printJson)({ ok: true, ...result });
        }
        catch (err) {
            if (err instanceof fenced_1.FencedWriteRejected)
                throw new context_1.CliError(`${err.code}: ${err.message}`, exports.FENCE_REJECTED_EXIT);
            if (err instanceof fenced_1.InvalidFencingToken)
                throw new context_1.CliError(`${err.code}: ${err.message}`);
            throw err;
        }
    });
    fence
        .command('read')
        .description('print a resource as JSON: its value, the highest token seen and who wrote it (null if never written)')
        .requiredOption('--db <file>', 'SQLite file holding the resources')
        .requiredOption('--resource <name>', 'resource name')
        .action((options) => {
        (0, context_1.printJson)(withStore(options.db, (store) => store.read(options.resource)));
    });
}
/**
 * The store in the user's --db file: one SQLite cannot use (not a database, locked, read-only) is
 * their error. better-sqlite3 missing is a TeamrunError naming the package, printed as it is.
 */
function withStore(file, use) {
    try {
        return (0, fenced_1.withFencedStore)(file, use);
    }
    catch (err) {
        throw (0, sqlite_1.isSqliteError)(err) ? new context_1.CliError(err.message) : err;
    }
}
