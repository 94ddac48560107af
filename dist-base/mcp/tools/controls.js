"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.sendMessageTool = exports.addTasksTool = exports.approveTool = exports.adjudicateTool = exports.abortRunTool = exports.steerTaskTool = exports.interruptTaskTool = exports.startRunTool = void 0;
/**
 * The tools that change a run, each one message of the run sent through its typed handle with the
 * server's own actor: the run checks that actor against governance.operators as for any door.
 */
const node_crypto_1 = require("node:crypto");
const client_1 = require("@temporalio/client");
const zod_1 = require("zod");
const client_2 = require("../../client");
const schema_1 = require("../../plan/schema");
const control_1 = require("../../plan/requests/control");
const add_tasks_1 = require("../../plan/requests/add-tasks");
const mailbox_1 = require("../../plan/requests/mailbox");
const validate_1 = require("../../plan/validate");
const approval_1 = require("../../team/approval");
const plan_file_1 = require("../../cli/plan-file");
const start_errors_1 = require("../../cli/start-errors");
const context_1 = require("../context");
const tool_1 = require("../tool");
const key = zod_1.z.string().min(1).max(128).describe('the task key');
const fencingToken = zod_1.z.number().int().min(0).optional().describe('the attempt to act on (default: the current one)');
const requestId = zod_1.z.string().min(1).max(control_1.MESSAGE_LIMITS.idChars).optional().describe('repeat it to make a retry safe');
const reason = zod_1.z.string().max(control_1.MESSAGE_LIMITS.reasonChars);
/** Plan problems quoted in a refused start; validate_plan lists every one. */
const QUOTED_PROBLEMS = 20;
/** The contract's bound on a steering text. */
const STEER_TEXT_BYTES = 8 * 1024;
const CONTROL = { readOnlyHint: false, openWorldHint: false };
exports.startRunTool = (0, tool_1.defineTool)({
    name: 'start_run',
    title: 'Start a run',
    description: 'Check a TeamPlan as validate_plan does and start it as a team run; returns at once with its runId ' +
        '(follow it with run_status and read_events). A runId already running is refused already_started.',
    input: zod_1.z.object({ plan: zod_1.z.unknown(), runId: tool_1.runId.optional() }),
    listed: zod_1.z.object({ plan: schema_1.TeamPlanSchema, runId: tool_1.runId.optional() }),
    annotations: { ...CONTROL, destructiveHint: false, idempotentHint: false, openWorldHint: true, title: 'Start a run' },
    run: async (args, ctx) => {
        const checked = (0, validate_1.validatePlan)(args.plan, (0, plan_file_1.planChecks)(ctx.config));
        if (!checked.ok) {
            const quoted = checked.problems.slice(0, QUOTED_PROBLEMS).map((p) => `${p.path}: ${p.message}`);
            const more = checked.problems.length - quoted.length;
            throw new context_1.McpRefusal('invalid_plan', `${checked.problems.length} problem(s): ${quoted.join('; ')}${more ? `; and ${more} more` : ''} ` +
                '(validate_plan lists them with their codes)');
        }
        const taskQueue = ctx.config.connection.taskQueue;
        try {
            const handle = await (0, client_2.startTeamRun)(ctx.client, args.plan, { taskQueue, workflowId: args.runId });
            const id = handle.workflowId;
            return { runId: id, taskQueue, resources: [`teamrun://runs/${id}/status`, `teamrun://runs/${id}/report`] };
        }
        catch (err) {
            if (err instanceof client_1.WorkflowExecutionAlreadyStartedError)
                throw new context_1.McpRefusal('already_started', `a run with id "${err.workflowId}" is already running: pick another`);
            throw new context_1.McpRefusal('start_refused', (await (0, start_errors_1.startFailure)(err, ctx.client, args.plan)).message);
        }
    },
});
/** The attempt's token as the caller gave it, else the one holding the lease now (so only what was seen stops). */
async function currentToken(handle, task, given) {
    return given ?? (await handle.activeClaims()).find((c) => c.key === task)?.fencingToken;
}
exports.interruptTaskTool = (0, tool_1.defineTool)({
    name: 'interrupt_task',
    title: 'Interrupt a task',
    description: 'Take over a running task: its attempt is cancelled and the task settles in adjudication ' +
        '(TEAM_TASK_HUMAN_INTERRUPTED), never retried on its own; decide it with adjudicate.',
    input: zod_1.z.object({ runId: tool_1.runId, key, fencingToken, reason: reason.optional(), requestId }),
    annotations: { ...CONTROL, destructiveHint: true, idempotentHint: true, title: 'Interrupt a task' },
    run: async (args, ctx) => {
        const handle = await (0, context_1.runHandle)(ctx, args.runId);
        const verdict = await handle.interrupt({
            key: args.key,
            fencingToken: await currentToken(handle, args.key, args.fencingToken),
            requestId: args.requestId ?? (0, node_crypto_1.randomUUID)(),
            actor: ctx.actor,
            reason: args.reason,
        });
        if (!verdict.ok)
            throw new context_1.McpRefusal(verdict.reason, verdict.message ?? `interrupt_task: ${args.key}`);
        return verdict;
    },
});
exports.steerTaskTool = (0, tool_1.defineTool)({
    name: 'steer_task',
    title: 'Steer an agent task',
    description: 'Add guidance to a running agent task: the text joins its next model call. Answers { ok: true, turn }.',
    input: zod_1.z.object({
        runId: tool_1.runId,
        key,
        text: zod_1.z
            .string()
            .min(1)
            .refine((t) => Buffer.byteLength(t) <= STEER_TEXT_BYTES, 'text: at most 8 KiB'),
        fencingToken,
        requestId,
    }),
    annotations: { ...CONTROL, destructiveHint: false, idempotentHint: false, title: 'Steer an agent task' },
    run: async (args, ctx) => {
        const handle = await (0, context_1.runHandle)(ctx, args.runId);
        const request = {
            key: args.key,
            text: args.text,
            fencingToken: await currentToken(handle, args.key, args.fencingToken),
            requestId: args.requestId ?? (0, node_crypto_1.randomUUID)(),
            actor: ctx.actor,
        };
        // `steerTask` has no typed method yet (it lands with the agent executor): sent by name through the handle,
        // whose executeUpdate retries a refusal at a handover as the typed methods do.
        return handle.executeUpdate('steerTask', { args: [request] });
    },
});
exports.abortRunTool = (0, tool_1.defineTool)({
    name: 'abort_run',
    title: 'Abort a run',
    description: 'Stop the whole run: nothing new starts, running attempts are cancelled into adjudication (or failed with ' +
        'requireAdjudication false), tasks not started are skipped. Repeating it changes nothing more.',
    input: zod_1.z.object({
        runId: tool_1.runId,
        reason: reason.min(1),
        code: control_1.AbortCodeSchema.optional(),
        requireAdjudication: zod_1.z.boolean().optional(),
        requestId,
    }),
    annotations: { ...CONTROL, destructiveHint: true, idempotentHint: true, title: 'Abort a run' },
    run: async (args, ctx) => {
        const handle = await (0, context_1.runHandle)(ctx, args.runId);
        const verdict = await handle.abort({
            ...(args.code ? { code: args.code } : {}),
            reason: args.reason,
            requestId: args.requestId ?? (0, node_crypto_1.randomUUID)(),
            actor: ctx.actor,
            requireAdjudication: args.requireAdjudication,
        });
        if (!verdict.ok)
            throw new context_1.McpRefusal(verdict.reason, verdict.message ?? 'abort_run');
        return verdict;
    },
});
const decisionId = zod_1.z.string().min(1).max(control_1.MESSAGE_LIMITS.idChars).optional();
exports.adjudicateTool = (0, tool_1.defineTool)({
    name: 'adjudicate',
    title: 'Decide an adjudication',
    description: 'Decide a task waiting in adjudication: retry (run it again, new fencing token), accept (succeeded, with ' +
        '`result` as its output) or reject (failed; its dependents are skipped). The same decisionId again ' +
        'returns the first outcome.',
    input: control_1.AdjudicateRequestSchema.omit({ actor: true, decisionId: true }).extend({ runId: tool_1.runId, decisionId }),
    annotations: { ...CONTROL, destructiveHint: true, idempotentHint: true, title: 'Decide an adjudication' },
    run: async ({ runId: id, ...request }, ctx) => {
        const handle = await (0, context_1.runHandle)(ctx, id);
        return handle.adjudicate({ ...request, decisionId: request.decisionId ?? (0, node_crypto_1.randomUUID)(), actor: ctx.actor });
    },
});
exports.approveTool = (0, tool_1.defineTool)({
    name: 'approve',
    title: 'Answer an approval',
    description: 'Answer an approval task (executor kind approval, waiting with TEAM_TASK_APPROVAL_REQUIRED): approved ' +
        'true lets its dependents run, false fails it. Other adjudications are decided with adjudicate.',
    input: zod_1.z.object({ runId: tool_1.runId, key, approved: zod_1.z.boolean(), reason: reason.optional(), decisionId }),
    annotations: { ...CONTROL, destructiveHint: true, idempotentHint: true, title: 'Answer an approval' },
    run: async (args, ctx) => {
        const handle = await (0, context_1.runHandle)(ctx, args.runId);
        const record = (await handle.adjudications()).find((a) => a.key === args.key && a.decision === null);
        if (record && record.code !== approval_1.APPROVAL_CODE)
            throw new context_1.McpRefusal('not_an_approval', `task "${args.key}" waits in adjudication with ${record.code}, not an approval: decide it with adjudicate`);
        return handle.adjudicate({
            key: args.key,
            decision: args.approved ? 'accept' : 'reject',
            decisionId: args.decisionId ?? (0, node_crypto_1.randomUUID)(),
            actor: ctx.actor,
            reason: args.reason,
        });
    },
});
exports.addTasksTool = (0, tool_1.defineTool)({
    name: 'add_tasks',
    title: 'Add tasks to a run',
    description: "Add tasks to the running graph, checked as a plan's tasks are (keys, dependencies, budget spawn limits); " +
        'a refusal names the problem and its path. The same requestId again adds nothing more.',
    input: zod_1.z.object({
        runId: tool_1.runId,
        tasks: zod_1.z.array(zod_1.z.unknown()).min(1).max(add_tasks_1.ADD_TASKS_LIMITS.maxTasks),
        parent: zod_1.z.string().max(128).optional(),
        requestId,
    }),
    listed: zod_1.z.object({
        runId: tool_1.runId,
        tasks: zod_1.z.array(schema_1.TaskSchema).min(1).max(add_tasks_1.ADD_TASKS_LIMITS.maxTasks),
        parent: zod_1.z.string().max(128).optional().describe('the task they are added under'),
        requestId,
    }),
    annotations: { ...CONTROL, destructiveHint: false, idempotentHint: false, openWorldHint: true, title: 'Add tasks' },
    run: async (args, ctx) => {
        const handle = await (0, context_1.runHandle)(ctx, args.runId);
        return handle.addTasks({
            tasks: args.tasks,
            ...(args.parent ? { parent: args.parent } : {}),
            requestId: args.requestId ?? (0, node_crypto_1.randomUUID)(),
            actor: ctx.actor,
        });
    },
});
exports.sendMessageTool = (0, tool_1.defineTool)({
    name: 'send_message',
    title: 'Send a mailbox message',
    description: "Send a message to a run's mailbox as coordinator: `to` a task key, teammate-<n>, coordinator or * (every " +
        'task not settled). A running task reads it with its inbox.',
    input: zod_1.z.object({
        runId: tool_1.runId,
        to: zod_1.z.string().min(1).max(128),
        subject: zod_1.z.string().max(mailbox_1.MAILBOX_LIMITS.subjectChars).optional(),
        body: zod_1.z.unknown().describe(`any JSON, at most ${mailbox_1.MAILBOX_LIMITS.bodyBytes} bytes`),
        requestId,
    }),
    annotations: { ...CONTROL, destructiveHint: false, idempotentHint: false, title: 'Send a mailbox message' },
    run: async (args, ctx) => {
        const handle = await (0, context_1.runHandle)(ctx, args.runId);
        return handle.sendMessage({
            from: 'coordinator',
            to: args.to,
            subject: args.subject,
            body: args.body,
            requestId: args.requestId,
            actor: ctx.actor,
        });
    },
});
