"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.readEventsTool = exports.taskLogTool = exports.listTasksTool = exports.listRunsTool = exports.runStatusTool = exports.validatePlanTool = void 0;
/** The read-only tools: checking a plan, and looking at runs, their tasks, logs and events. */
const zod_1 = require("zod");
const runs_1 = require("../../client/runs");
const types_1 = require("../../team/types");
const schema_1 = require("../../plan/schema");
const validate_1 = require("../../plan/validate");
const report_1 = require("../../report");
const plan_file_1 = require("../../cli/plan-file");
const context_1 = require("../context");
const tool_1 = require("../tool");
const run_reads_1 = require("../run-reads");
const wait_1 = require("../wait");
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
/** Problems one validate_plan answer lists; the rest are counted, never dropped unsaid. */
const MAX_PROBLEMS = 200;
/** Pages: tasks and runs carry outputs and summaries, so a page stays small enough for a model's context. */
const TASK_PAGE = { default: 50, max: 200 };
const RUN_PAGE = { default: 20, max: 100 };
/** listTeamRuns reads at most this many runs (client/runs.ts). */
const MAX_RUNS_LISTED = 1_000;
const EVENT_PAGE = { default: 100, max: 500 };
const kinds = zod_1.z
    .array(zod_1.z.string().regex(/^[A-Za-z0-9._-]{1,64}$/))
    .max(64)
    .optional()
    .describe("custom executor kinds the project's workers register, beyond worker.customKinds");
exports.validatePlanTool = (0, tool_1.defineTool)({
    name: 'validate_plan',
    title: 'Check a plan',
    description: 'Check a TeamPlan (schema, graph, sizes, executor kinds) without starting it. Answers { ok: true, tasks, ' +
        'teammates } or { ok: false, problems: [{ path, code, message }] } with every problem found.',
    input: zod_1.z.object({ plan: zod_1.z.unknown(), kinds }),
    listed: zod_1.z.object({ plan: schema_1.TeamPlanSchema, kinds }),
    annotations: { ...READ_ONLY, title: 'Check a plan' },
    run: async ({ plan, kinds: extra }, ctx) => {
        const checked = (0, validate_1.validatePlan)(plan, (0, plan_file_1.planChecks)(ctx.config, extra));
        if (checked.ok)
            return { ok: true, name: checked.plan.name, tasks: checked.plan.tasks.length, teammates: checked.plan.teammates };
        const problems = checked.problems.slice(0, MAX_PROBLEMS);
        return { ok: false, problems, omittedProblems: checked.problems.length - problems.length };
    },
});
exports.runStatusTool = (0, tool_1.defineTool)({
    name: 'run_status',
    title: 'Status of a run',
    description: "A run's state, task counts, budget and pending adjudications, open or closed, with a `cursor`. Pass that " +
        'cursor back with waitMs (up to 60000) to wait until something happens in the run (or it ends): cheap ' +
        'polling. With a progressToken, progress notifications come while it waits.',
    input: zod_1.z.object({
        runId: tool_1.runId,
        cursor: tool_1.cursor.optional(),
        waitMs: zod_1.z.number().int().min(0).max(60_000).optional().describe('wait this long for a change after cursor'),
    }),
    annotations: { ...READ_ONLY, title: 'Status of a run' },
    run: (args, ctx, call) => (0, wait_1.runStatus)(ctx, args, call),
});
exports.listRunsTool = (0, tool_1.defineTool)({
    name: 'list_runs',
    title: 'List runs',
    description: 'Recent team runs, newest first: id, team, state, progress, pending adjudications, budget used. Paged: ' +
        'pass nextCursor for the next page (up to the 1,000 newest matching runs; narrow with team, status, since).',
    input: zod_1.z.object({
        team: zod_1.z.string().max(100).optional(),
        status: zod_1.z.array(zod_1.z.string().max(40)).max(20).optional().describe('run states or workflow statuses, any of'),
        since: zod_1.z.string().max(40).optional().describe('runs started since: 7d, 12h, 30m, or an ISO date'),
        limit: zod_1.z.number().int().min(1).max(RUN_PAGE.max).optional(),
        cursor: tool_1.cursor.optional(),
    }),
    annotations: { ...READ_ONLY, title: 'List runs' },
    run: async (args, ctx) => {
        const offset = (0, tool_1.decodeCursor)(args.cursor);
        const limit = args.limit ?? RUN_PAGE.default;
        if (offset >= MAX_RUNS_LISTED)
            throw new context_1.McpRefusal('invalid_request', 'list_runs pages through the 1,000 newest runs: narrow the filter');
        const runs = await (0, runs_1.listTeamRuns)(ctx.client, {
            team: args.team,
            statuses: args.status,
            since: args.since === undefined ? undefined : (0, runs_1.parseSince)(args.since),
            limit: Math.min(offset + limit + 1, MAX_RUNS_LISTED),
        });
        const page = runs.slice(offset, offset + limit);
        const more = runs.length > offset + limit;
        return { runs: page, nextCursor: more ? (0, tool_1.encodeCursor)(offset + limit) : null };
    },
});
exports.listTasksTool = (0, tool_1.defineTool)({
    name: 'list_tasks',
    title: 'List tasks of a run',
    description: "A run's tasks in plan order: status, attempts, the current fencingToken (what interrupt_task and " +
        'steer_task name), holder, last error, output. Paged: pass nextCursor for the next page.',
    input: zod_1.z.object({
        runId: tool_1.runId,
        status: zod_1.z.enum(types_1.TASK_STATUSES).optional(),
        limit: zod_1.z.number().int().min(1).max(TASK_PAGE.max).optional(),
        cursor: tool_1.cursor.optional(),
    }),
    annotations: { ...READ_ONLY, title: 'List tasks of a run' },
    run: async (args, ctx) => {
        const offset = (0, tool_1.decodeCursor)(args.cursor);
        const limit = args.limit ?? TASK_PAGE.default;
        const tasks = await (0, run_reads_1.readTasks)(ctx, args.runId, { status: args.status, offset, limit: limit + 1 });
        const more = tasks.length > limit;
        return { tasks: tasks.slice(0, limit), nextCursor: more ? (0, tool_1.encodeCursor)(offset + limit) : null };
    },
});
exports.taskLogTool = (0, tool_1.defineTool)({
    name: 'task_log',
    title: "A task's log",
    description: 'What one attempt of a task printed (the redacted tails of stdout and stderr the worker keeps), its outcome ' +
        'and links; the latest attempt unless `attempt` is given. Recorded when the attempt ends.',
    input: zod_1.z.object({ runId: tool_1.runId, key: zod_1.z.string().min(1).max(128), attempt: zod_1.z.number().int().min(1).optional() }),
    annotations: { ...READ_ONLY, title: "A task's log" },
    run: async ({ runId: id, key, attempt }, ctx) => {
        const report = await (0, report_1.loadRunAttempts)(ctx.client, id);
        const attempts = report.tasks.find((t) => t.key === key)?.attempts ?? [];
        if (!attempts.length)
            throw new context_1.McpRefusal('not_found', `run ${id} has no attempt of task "${key}" yet`);
        const chosen = attempt === undefined ? attempts[attempts.length - 1] : attempts.find((a) => a.attempt === attempt);
        if (!chosen) {
            const numbers = attempts.map((a) => a.attempt).join(', ');
            throw new context_1.McpRefusal('not_found', `task "${key}" has no attempt ${attempt} (attempts: ${numbers})`);
        }
        return { key, attempts: attempts.map((a) => a.attempt), attempt: chosen };
    },
});
exports.readEventsTool = (0, tool_1.defineTool)({
    name: 'read_events',
    title: "A run's events",
    description: "The run's events after `cursor`, oldest first (task:claimed, task:completed, task:adjudication-required, " +
        'run:end, ...). Pass nextCursor back to read on; `gap` says when events older than the run keeps were ' +
        'passed over (teamrun report has its whole history).',
    input: zod_1.z.object({
        runId: tool_1.runId,
        cursor: zod_1.z
            .string()
            .regex(/^\d{1,15}$/, 'cursor: a nextCursor this tool gave')
            .optional(),
        limit: zod_1.z.number().int().min(1).max(EVENT_PAGE.max).optional(),
    }),
    annotations: { ...READ_ONLY, title: "A run's events" },
    run: async (args, ctx) => {
        const handle = await (0, context_1.runHandle)(ctx, args.runId);
        const after = Number(args.cursor ?? 0);
        const page = await handle.events({ after, limit: args.limit ?? EVENT_PAGE.default });
        const first = page.events[0]?.seq;
        const gap = first !== undefined && first > after + 1 ? { fromSeq: after + 1, toSeq: first - 1 } : null;
        return { events: page.events, nextCursor: String(page.nextSeq), gap };
    },
});
