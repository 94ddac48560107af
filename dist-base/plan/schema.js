"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.TeamPlanSchema = exports.BudgetSchema = exports.LedgerIdSchema = exports.TaskSchema = exports.ExecutorSchema = exports.WORKER_EXECUTOR_KINDS = exports.BUILTIN_EXECUTOR_KINDS = exports.BUILTIN_EXECUTOR_SCHEMAS = exports.ApprovalExecutorSchema = exports.ActivityExecutorSchema = exports.ActivityQueueSchema = exports.AgentCliExecutorSchema = exports.AgentCliSpecSchema = exports.AGENT_CLIS = exports.NoopExecutorSchema = exports.NoopSpecSchema = exports.SleepExecutorSchema = exports.SleepSpecSchema = exports.AgentExecutorSchema = exports.AgentSpecSchema = exports.LlmExecutorSchema = exports.LlmSpecSchema = exports.HttpExecutorSchema = exports.HttpSpecSchema = exports.ShellExecutorSchema = exports.ShellSpecSchema = exports.UsageSchema = exports.RetrySchema = exports.CONTINUE_AS_NEW_HISTORY_BYTES = exports.CONTINUE_AS_NEW_EVENTS = exports.TEMPORAL_PAYLOAD_LIMIT_BYTES = exports.PLAN_LIMITS = exports.MAX_TIMEOUT_MS = exports.jsonBytes = void 0;
exports.isBuiltinExecutorKind = isBuiltinExecutorKind;
exports.isReservedName = isReservedName;
const zod_1 = require("zod");
const agent_1 = require("./agent");
const bytes_1 = require("./bytes");
Object.defineProperty(exports, "jsonBytes", { enumerable: true, get: function () { return bytes_1.jsonBytes; } });
const fields_1 = require("./fields");
Object.defineProperty(exports, "MAX_TIMEOUT_MS", { enumerable: true, get: function () { return fields_1.MAX_TIMEOUT_MS; } });
const lease_pace_1 = require("./lease-pace");
/** Limits that keep one run's input and state well inside Temporal's payload and history limits. */
exports.PLAN_LIMITS = {
    maxTasks: 20_000,
    /** Temporal allows 2,000 pending activities per workflow: half of them stay free for stops and foreign work. */
    maxTeammates: 1_000,
    maxDependsOn: 1_000,
    maxScope: 64,
    maxTitle: 500,
    maxCommand: 64 * 1024,
    /** An `agent-cli` task's prompt; with its inbox it must still fit one argument of the CLI's command line. */
    maxAgentPrompt: 64 * 1024,
    /** An `activity` task's `input`, as JSON: the same bound as a task's output. */
    maxActivityInputBytes: 64 * 1024,
    maxActivityQueues: 64,
    /** Temporal's own limit on activity type and task queue names is far larger; these keep history small. */
    maxActivityName: 256,
    /** A plan's JSON as submitted: Temporal's 2 MB payload limit less room for the rest of the start request. */
    maxPlanBytes: 1536 * 1024,
    /**
     * The plan as a run carries it in the snapshot it hands to itself when it continues as new
     * (packed: see team/snapshot.ts): well under the payload limit, leaving room for the state.
     */
    maxPackedPlanBytes: 640 * 1024,
};
/** Temporal's default limit on one payload (a workflow's input, a continue-as-new snapshot, an update). */
exports.TEMPORAL_PAYLOAD_LIMIT_BYTES = 2 * 1024 * 1024;
/**
 * When a run hands over to a fresh workflow run (continue-as-new): at this many history events,
 * or earlier when Temporal suggests it. Well under the 10,240 events at which Temporal warns;
 * the lower bound leaves every run room to make progress between handovers.
 */
exports.CONTINUE_AS_NEW_EVENTS = { min: 200, max: 10_000, default: 8_000 };
/**
 * ... and at this many bytes of history, whatever the count: a few large signals (which
 * Temporal records before the workflow can refuse them) fill history long before many events
 * do. Temporal warns at 10 MB and terminates a run at 50 MB; the room above this one lets
 * in-flight attempts settle before the handover.
 */
exports.CONTINUE_AS_NEW_HISTORY_BYTES = 8 * 1024 * 1024;
/**
 * A lease: its TTL (the heartbeat timeout of every attempt) and the pace an attempt heartbeats at
 * (default: see `defaultHeartbeatEveryMs` in src/plan/lease-pace.ts; at most 80% of the TTL).
 */
const leaseSchema = (ttlMs) => zod_1.z
    .object({ ttlMs, heartbeatEveryMs: fields_1.durationMs.min(lease_pace_1.LEASE_PACE.minHeartbeatEveryMs).optional() })
    .strict()
    .refine((l) => l.heartbeatEveryMs === undefined || l.heartbeatEveryMs <= (0, lease_pace_1.maxHeartbeatEveryMs)(l.ttlMs), {
    message: `lease.heartbeatEveryMs must be at most ${lease_pace_1.LEASE_PACE.maxFractionOfTtl * 100}% of lease.ttlMs`,
    path: ['heartbeatEveryMs'],
});
exports.RetrySchema = zod_1.z
    .object({
    maxAttempts: zod_1.z.number().int().min(1).max(1_000).optional(),
    backoffMs: fields_1.durationMs.max(24 * 3600_000).optional(),
})
    .strict();
exports.UsageSchema = zod_1.z
    .object({
    inputTokens: zod_1.z.number().nonnegative().optional(),
    outputTokens: zod_1.z.number().nonnegative().optional(),
    cacheTokens: zod_1.z.number().nonnegative().optional(),
    model: zod_1.z.string().max(200).optional(),
    costUsd: zod_1.z.number().nonnegative().optional(),
    /** Tokens of usage records that had neither a price nor a reported cost (the worker fills it). */
    unpricedTokens: zod_1.z.number().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
})
    .strict();
const stringMap = zod_1.z.record(zod_1.z.string(), zod_1.z.string());
/**
 * A kind a worker runs, as a plan writes it: `kind` first, then the fields of the schema its
 * executor parses the spec with (the one `defineExecutor` is given). Refinements of the whole
 * spec do not come across: the caller adds them again.
 */
function planKind(kind, spec) {
    return zod_1.z.object({ kind: zod_1.z.literal(kind), ...spec.shape }).strict();
}
exports.ShellSpecSchema = zod_1.z
    .object({
    command: zod_1.z.string().min(1).max(exports.PLAN_LIMITS.maxCommand),
    cwd: zod_1.z.string().optional(),
    // A literal, or a variable the worker's operator lists in
    // worker.shell.secretEnv (resolved and redacted on the worker).
    env: zod_1.z
        .record(zod_1.z.string(), zod_1.z.union([
        zod_1.z.string(),
        zod_1.z.object({ fromWorkerEnv: zod_1.z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a variable name') }).strict(),
    ]))
        .optional(),
    timeoutMs: fields_1.durationMs.min(1).optional(),
})
    .strict();
exports.ShellExecutorSchema = planKind('shell', exports.ShellSpecSchema);
exports.HttpSpecSchema = zod_1.z
    .object({
    url: zod_1.z.string().regex(/^https?:\/\/\S+$/, 'url must be an http(s) URL'),
    method: zod_1.z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).optional(),
    headers: stringMap.optional(),
    body: zod_1.z.unknown().optional(),
    timeoutMs: fields_1.durationMs.min(1).optional(),
})
    .strict();
exports.HttpExecutorSchema = planKind('http', exports.HttpSpecSchema);
exports.LlmSpecSchema = zod_1.z
    .object({
    model: zod_1.z.string().min(1),
    prompt: zod_1.z.string().optional(),
    messages: zod_1.z.array(fields_1.ChatMessageSchema).min(1).optional(),
    maxTokens: zod_1.z.number().int().min(1).optional(),
    timeoutMs: fields_1.durationMs.min(1).optional(),
})
    .strict()
    .refine(...fields_1.onePromptOrMessages);
exports.LlmExecutorSchema = planKind('llm', exports.LlmSpecSchema).refine(...fields_1.onePromptOrMessages);
var agent_2 = require("./agent");
Object.defineProperty(exports, "AgentSpecSchema", { enumerable: true, get: function () { return agent_2.AgentSpecSchema; } });
exports.AgentExecutorSchema = planKind('agent', agent_1.AgentSpecSchema).refine(...fields_1.onePromptOrMessages);
exports.SleepSpecSchema = zod_1.z.object({ ms: fields_1.durationMs }).strict();
exports.SleepExecutorSchema = planKind('sleep', exports.SleepSpecSchema);
exports.NoopSpecSchema = zod_1.z.object({}).strict();
exports.NoopExecutorSchema = planKind('noop', exports.NoopSpecSchema);
/** The coding-agent CLIs the `agent-cli` kind runs (each one's binary is the worker's, `worker.agentClis`). */
exports.AGENT_CLIS = ['claude-code', 'codex', 'gemini'];
/**
 * A coding-agent CLI run headless in its streaming JSON mode (docs/agent-clis.md). The plan names
 * the CLI, never its binary; `args` must each be listed in the worker's `allowArgs` for that CLI.
 */
exports.AgentCliSpecSchema = zod_1.z
    .object({
    cli: zod_1.z.enum(exports.AGENT_CLIS, { error: `must be one of ${exports.AGENT_CLIS.join(', ')}` }),
    prompt: zod_1.z.string().min(1).max(exports.PLAN_LIMITS.maxAgentPrompt),
    cwd: zod_1.z.string().min(1).max(4_096).optional(),
    model: zod_1.z.string().min(1).max(200).optional(),
    args: zod_1.z.array(zod_1.z.string().max(1_024)).max(64).optional(),
    timeoutMs: fields_1.durationMs.min(1).optional(),
    worktree: zod_1.z.boolean().optional(),
})
    .strict();
exports.AgentCliExecutorSchema = planKind('agent-cli', exports.AgentCliSpecSchema);
/** A task queue an `activity` task may target, as `activityQueues` lists it. */
exports.ActivityQueueSchema = zod_1.z.string().min(1).max(exports.PLAN_LIMITS.maxActivityName);
/**
 * Any Temporal activity, in any SDK language, on its own task queue, scheduled as the attempt
 * (docs/activities.md). Without heartbeats there is no lease: `startToCloseMs` is then the only
 * bound, so it is required.
 */
exports.ActivityExecutorSchema = zod_1.z
    .object({
    kind: zod_1.z.literal('activity'),
    activityType: zod_1.z.string().min(1).max(exports.PLAN_LIMITS.maxActivityName),
    taskQueue: exports.ActivityQueueSchema,
    input: zod_1.z
        .unknown()
        .refine((input) => (0, bytes_1.jsonBytes)(input) <= exports.PLAN_LIMITS.maxActivityInputBytes, {
        message: `input must be at most ${exports.PLAN_LIMITS.maxActivityInputBytes} bytes as JSON`,
    })
        .optional(),
    startToCloseMs: fields_1.durationMs.min(1).max(fields_1.MAX_TIMEOUT_MS).optional(),
    heartbeat: zod_1.z.enum(['required', 'optional']).optional(),
})
    .strict()
    .refine((e) => e.heartbeat !== 'optional' || e.startToCloseMs !== undefined, {
    message: 'heartbeat "optional" needs startToCloseMs: without heartbeats it is the only bound on the attempt',
    path: ['startToCloseMs'],
});
/**
 * A human gate: no activity runs. When its dependencies succeed the task goes straight to
 * adjudication (`TEAM_TASK_APPROVAL_REQUIRED`), holding no teammate and reserving no budget,
 * until someone with the right decides (docs/messaging.md).
 */
exports.ApprovalExecutorSchema = zod_1.z
    .object({
    kind: zod_1.z.literal('approval'),
    /** Who may decide this task; narrows `governance.operators` (both must allow an actor when both are set). */
    approvers: zod_1.z.array(zod_1.z.string().min(1).max(200)).min(1).max(64).optional(),
    /** What the approver is asked, shown in the queue, the Web UI and the adjudication record. */
    prompt: zod_1.z.string().max(2_000).optional(),
    /** Nobody decided within this time: the task is decided `onTimeout` (default reject). */
    timeoutMs: fields_1.durationMs.min(1).max(fields_1.MAX_TIMEOUT_MS).optional(),
    onTimeout: zod_1.z.enum(['reject', 'accept']).optional(),
})
    .strict();
/** Schemas by kind: the compiler holds each schema's `kind` to the name it is listed under. */
const byKind = (schemas) => schemas;
/** The kinds a worker runs (`worker.executors` enables them), each by its schema in a plan. */
const WORKER_EXECUTOR_SCHEMAS = byKind({
    shell: exports.ShellExecutorSchema,
    http: exports.HttpExecutorSchema,
    llm: exports.LlmExecutorSchema,
    agent: exports.AgentExecutorSchema,
    sleep: exports.SleepExecutorSchema,
    noop: exports.NoopExecutorSchema,
    'agent-cli': exports.AgentCliExecutorSchema,
});
/** The kinds the workflow handles itself, with no executor on a worker. */
const WORKFLOW_EXECUTOR_SCHEMAS = byKind({
    activity: exports.ActivityExecutorSchema,
    approval: exports.ApprovalExecutorSchema,
});
/**
 * Schemas of the kinds teamrun ships, the one list of them every other derives from; any other
 * kind is a custom one, checked by the worker that runs it. In this order everywhere they are
 * listed (the JSON Schema, `teamrun validate`): the worker's kinds, then the workflow's.
 */
exports.BUILTIN_EXECUTOR_SCHEMAS = { ...WORKER_EXECUTOR_SCHEMAS, ...WORKFLOW_EXECUTOR_SCHEMAS };
// Object.keys types its answer string[]; these objects hold only the keys their types name.
exports.BUILTIN_EXECUTOR_KINDS = Object.keys(exports.BUILTIN_EXECUTOR_SCHEMAS);
exports.WORKER_EXECUTOR_KINDS = Object.keys(WORKER_EXECUTOR_SCHEMAS);
function isBuiltinExecutorKind(kind) {
    return Object.hasOwn(exports.BUILTIN_EXECUTOR_SCHEMAS, kind);
}
function builtinExecutorSchema(kind) {
    return isBuiltinExecutorKind(kind) ? exports.BUILTIN_EXECUTOR_SCHEMAS[kind] : undefined;
}
/**
 * Names every plain object already answers to (`constructor`, `toString`, `__proto__`, ...):
 * refused as kinds, so no registry anywhere can mistake one for an entry it holds.
 */
function isReservedName(name) {
    return name in Object.prototype;
}
exports.ExecutorSchema = zod_1.z
    .object({ kind: zod_1.z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'executor kind must be 1..64 chars of [A-Za-z0-9._-]') })
    .catchall(zod_1.z.unknown())
    .superRefine((executor, ctx) => {
    if (isReservedName(executor.kind)) {
        ctx.addIssue({ code: 'custom', message: `executor kind "${executor.kind}" is a reserved name`, path: ['kind'] });
        return;
    }
    const schema = builtinExecutorSchema(executor.kind);
    if (!schema)
        return;
    const parsed = schema.safeParse(executor);
    if (parsed.success)
        return;
    // As they are: an unknown field keeps its code and keys, for the did-you-mean.
    for (const issue of parsed.error.issues)
        ctx.addIssue({ ...issue });
});
exports.TaskSchema = zod_1.z
    .object({
    key: zod_1.z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/, 'task key must be 1..128 chars of [A-Za-z0-9._:-]'),
    title: zod_1.z.string().max(exports.PLAN_LIMITS.maxTitle).optional(),
    dependsOn: zod_1.z.array(zod_1.z.string()).max(exports.PLAN_LIMITS.maxDependsOn).default([]),
    priority: zod_1.z.enum(['high', 'normal', 'low']).default('normal'),
    scope: zod_1.z.array(zod_1.z.string().min(1).max(500)).max(exports.PLAN_LIMITS.maxScope).default([]),
    estimate: zod_1.z
        .object({ tokens: zod_1.z.number().nonnegative().optional(), usd: zod_1.z.number().nonnegative().optional() })
        .strict()
        .optional(),
    retry: exports.RetrySchema.optional(),
    lease: leaseSchema(fields_1.durationMs.min(1000)).optional(),
    onLeaseLost: zod_1.z.enum(['retry', 'adjudicate']).default('retry'),
    /** May this task add tasks to its run (`::teamrun-tasks::`, `teamrun add-tasks`, an llm answer's `tasks`)? */
    allowSpawn: zod_1.z.boolean().optional(),
    executor: exports.ExecutorSchema,
})
    .strict();
/** A shared ledger's id (`teamrun ledger create <id>`), as a plan's `budget.ledger` names it. */
exports.LedgerIdSchema = zod_1.z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,100}$/, 'ledger id must be 1..100 chars of [A-Za-z0-9._-]');
exports.BudgetSchema = zod_1.z
    .object({
    maxTasks: zod_1.z.number().int().min(0).optional(),
    maxTokens: zod_1.z.number().nonnegative().optional(),
    maxUsd: zod_1.z.number().nonnegative().optional(),
    maxWallMs: fields_1.durationMs.min(1).optional(),
    /** A budget shared with other runs: every attempt also takes a slot from this ledger. */
    ledger: exports.LedgerIdSchema.optional(),
    /** Tasks the run may add while it runs, in all (`addTasks`); past it a spawn is refused `max-spawned-tasks`. */
    maxSpawnedTasks: zod_1.z.number().int().min(0).max(exports.PLAN_LIMITS.maxTasks).optional(),
    /** Longest parent chain from a plan task (a plan task is depth 0); past it a spawn is refused `max-depth`. */
    maxDepth: zod_1.z.number().int().min(0).max(100).optional(),
})
    .strict();
exports.TeamPlanSchema = zod_1.z
    .object({
    name: zod_1.z.string().regex(/^[A-Za-z0-9._-]{1,100}$/, 'name must be 1..100 chars of [A-Za-z0-9._-]'),
    teammates: zod_1.z.number().int().min(1).max(exports.PLAN_LIMITS.maxTeammates).default(2),
    lease: leaseSchema(fields_1.durationMs.min(1000).default(30_000)).default({ ttlMs: 30_000 }),
    retry: zod_1.z
        .object({
        maxAttempts: zod_1.z.number().int().min(1).max(1_000).default(3),
        backoffMs: fields_1.durationMs.max(24 * 3600_000).default(1_000),
    })
        .strict()
        .default({ maxAttempts: 3, backoffMs: 1_000 }),
    budget: exports.BudgetSchema.default({}),
    /**
     * The scope of every task that names none (`["*"]`: the whole workspace, so such tasks run one at a time and
     * never beside a scoped one). Absent: a task without a scope claims nothing (docs/plans.md says why).
     */
    defaultScope: zod_1.z.array(zod_1.z.string().min(1).max(500)).max(exports.PLAN_LIMITS.maxScope).optional(),
    governance: zod_1.z
        .object({ operators: zod_1.z.array(zod_1.z.string().min(1).max(200)).optional() })
        .strict()
        .optional(),
    awaitAdjudication: zod_1.z.boolean().default(true),
    adjudicationTimeoutMs: fields_1.durationMs.min(1).default(7 * 24 * 3600_000),
    /** Task queues `activity` tasks may target; any other is refused at validation. */
    activityQueues: zod_1.z.array(exports.ActivityQueueSchema).max(exports.PLAN_LIMITS.maxActivityQueues).optional(),
    /**
     * `teammateIdle`: an executor run as its own activity whenever
     * a teammate slot goes idle; its failures never touch a task.
     */
    hooks: zod_1.z
        .object({
        teammateIdle: zod_1.z
            .object({
            executor: exports.ExecutorSchema.refine((e) => !Object.hasOwn(WORKFLOW_EXECUTOR_SCHEMAS, e.kind), {
                message: 'a hook runs on the worker: any executor kind but "approval" and "activity"',
                path: ['kind'],
            }),
        })
            .strict()
            .optional(),
    })
        .strict()
        .optional(),
    continueAsNewAfterEvents: zod_1.z
        .number()
        .int()
        .min(exports.CONTINUE_AS_NEW_EVENTS.min)
        .max(exports.CONTINUE_AS_NEW_EVENTS.max)
        .optional(),
    tasks: zod_1.z.array(exports.TaskSchema).max(exports.PLAN_LIMITS.maxTasks, `at most ${exports.PLAN_LIMITS.maxTasks} tasks`),
})
    .strict();
