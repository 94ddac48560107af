"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.registerAgent = registerAgent;
const context_1 = require("../context");
const control_1 = require("./control");
const options_1 = require("../options");
/** `steer`: guidance for a running agent, joined before its next model call. */
function registerAgent(program) {
    program
        .command('steer <workflowId> <key> <text>')
        .description('guide a running agent: the text (at most 8 KiB) joins its conversation before its next model call')
        .option('--fencing-token <n>', 'steer only the attempt with this token (default: whichever runs now)', options_1.intOption)
        .option('--request-id <id>', 'id of this request, for the record')
        .addOption((0, control_1.actorOption)())
        .option('--json', 'print the verdict as JSON')
        .action(async (workflowId, key, text, options, command) => {
        const verdict = await (0, control_1.withRun)(command, workflowId, (handle) => (0, control_1.update)(handle, 'steer', {
            key,
            text,
            fencingToken: options.fencingToken,
            requestId: options.requestId,
            actor: options.actor ?? (0, control_1.defaultActor)(),
        }));
        if (options.json)
            (0, context_1.printJson)(verdict);
        else
            process.stdout.write(`steered "${key}": the text joins model call ${verdict.turn}\n`);
    });
}
