"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ownTools = ownTools;
exports.isOwnTool = isOwnTool;
exports.callOwnTool = callOwnTool;
/**
 * teamrun's own tools for agents (CONTRACT: `teamrun__send_message`, `teamrun__read_inbox`,
 * `teamrun__add_tasks` with `allowSpawn`, `teamrun__set_output`). The first three go through the
 * attempt gateway, as a shell task's `teamrun send`, `inbox` and `add-tasks` do; set_output only
 * records its value in the transcript.
 */
const agent_1 = require("../../../plan/agent");
const gateway_1 = require("./gateway");
const SPECS = {
    teamrun__send_message: {
        description: 'Send a message to a teammate: a task key, teammate-<n>, "coordinator" or "*" for everyone.',
        parameters: {
            type: 'object',
            properties: { to: { type: 'string' }, subject: { type: 'string' }, body: { type: 'string' } },
            required: ['to', 'body'],
        },
        idempotent: false,
    },
    teamrun__read_inbox: {
        description: 'Read the messages teammates sent to this task since the last read.',
        parameters: { type: 'object', properties: {} },
        // Reading advances the inbox's cursor: a read cut by a crash may have taken messages.
        idempotent: false,
    },
    teamrun__add_tasks: {
        description: 'Add tasks to the run (TeamPlan task objects: key, title?, dependsOn?, executor).',
        parameters: {
            type: 'object',
            properties: { tasks: { type: 'array', items: { type: 'object' } } },
            required: ['tasks'],
        },
        // Its request id comes from the call's id: the run answers a repeat with the first outcome.
        idempotent: true,
    },
    teamrun__set_output: {
        description: "Set this task's output (any JSON value) for the tasks that depend on it; the last call wins.",
        parameters: { type: 'object', properties: { output: {} }, required: ['output'] },
        idempotent: true,
    },
};
/** The own tools a task may use: those it lists (or `teamrun__*`), add_tasks only with `allowSpawn`. */
function ownTools(listed, allowSpawn) {
    const all = listed.includes('teamrun__*');
    return agent_1.TEAMRUN_TOOLS.filter((name) => (all || listed.includes(name)) && (name !== 'teamrun__add_tasks' || allowSpawn)).map((name) => ({ name, ...SPECS[name] }));
}
function isOwnTool(name) {
    return agent_1.TEAMRUN_TOOLS.includes(name);
}
/** Runs one own tool; a refusal from the run is the tool's error, for the model to read. */
async function callOwnTool(name, args, gateway, callKey) {
    try {
        switch (name) {
            case 'teamrun__send_message': {
                if (typeof args.to !== 'string' || args.body === undefined)
                    return { ok: false, error: 'send_message takes { to: string, subject?: string, body }' };
                const answer = await gateway.post('sendMessage', { to: args.to, subject: args.subject, body: args.body });
                return { ok: true, content: JSON.stringify(answer) };
            }
            case 'teamrun__read_inbox':
                return { ok: true, content: JSON.stringify(await gateway.post('readInbox', {})) };
            case 'teamrun__add_tasks': {
                if (!Array.isArray(args.tasks))
                    return { ok: false, error: 'add_tasks takes { tasks: [TaskSpec...] }' };
                const answer = await gateway.post('addTasks', { tasks: args.tasks, requestId: callKey });
                return { ok: true, content: JSON.stringify(answer) };
            }
            case 'teamrun__set_output':
                return Object.hasOwn(args, 'output')
                    ? { ok: true, content: 'output set' }
                    : { ok: false, error: 'set_output takes { output: <any JSON value> }' };
        }
    }
    catch (err) {
        if (err instanceof gateway_1.GatewayRefusal)
            return { ok: false, error: err.message };
        throw err;
    }
}
