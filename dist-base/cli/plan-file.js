"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.KIND_OPTION_HELP = void 0;
exports.planChecks = planChecks;
exports.readPlan = readPlan;
const load_1 = require("../plan/load");
const context_1 = require("./context");
/**
 * What `teamrun validate` and `teamrun start` both check a plan file against, from the config
 * and `--kind`: the executor kinds known (built in, `worker.customKinds`, `--kind`), and whether
 * the worker restricts commands (then a plan's `env` may not choose the program).
 */
function planChecks(config, kinds = []) {
    return {
        knownKinds: [...config.worker.customKinds, ...kinds],
        commandsRestricted: config.worker.shell.allowCommands !== undefined,
    };
}
/** `--kind`, as both commands declare it. */
exports.KIND_OPTION_HELP = 'custom executor kinds your workers register (also worker.customKinds in the config); ' +
    'any other unknown kind is a problem';
/**
 * Reads and checks a plan file; every problem, with its path, becomes one CliError. Returns the
 * plan as written (defaults are the workflow's to fill) and as validated.
 */
function readPlan(file, options = {}) {
    const result = (0, load_1.loadPlanFile)(file, options);
    if (!result.ok) {
        const lines = result.problems.map((p) => `  ${p.path}: ${p.message}`).join('\n');
        throw new context_1.CliError(`${file}: ${result.problems.length} problem(s)\n${lines}`);
    }
    return { input: result.raw, plan: result.plan };
}
