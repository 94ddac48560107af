import { z } from 'zod';
import { CLI_MODEL, cliPrompt } from './agent-cli-args';
import { AGENT_LIMITS, AgentRoleSchema, AgentSpecSchema, RoleNameSchema, modelOrRole } from './agent';
import { OutputSchemaSchema } from './output-schema';
import { jsonBytes } from './bytes';
import { ChatMessageSchema, MAX_TIMEOUT_MS, StallAfterMsSchema, durationMs, onePromptOrMessages } from './fields';
import { CONTINUE_AS_NEW_EVENTS, OperatorNameSchema, PLAN_LIMITS } from './limits';
import { ModelRetrySchema } from './model-retry';
import { BudgetSchema } from './budget-schema';
import { ParentLinkSchema, TEAM_DEPTH_MAX, TeamExecutorSchema } from './team';
import { TeamParentSchema } from './requests/child-carve';
export { TEAM_DEPTH_DEFAULT, TEAM_DEPTH_MAX, TeamExecutorSchema, type TeamExecutorSpec } from './team';
export { jsonBytes, MAX_TIMEOUT_MS };
import { LEASE_PACE, maxHeartbeatEveryMs } from './lease-pace';
export { CONTINUE_AS_NEW_HISTORY_BYTES, TEMPORAL_PAYLOAD_LIMIT_BYTES } from './limits';
export { CONTINUE_AS_NEW_EVENTS, OperatorNameSchema, PLAN_LIMITS };

/**
 * A lease: its TTL (the heartbeat timeout of every attempt) and the pace an attempt heartbeats at
 * (default: see `defaultHeartbeatEveryMs` in src/plan/lease-pace.ts; at most 80% of the TTL).
 */
const leaseSchema = <T extends z.ZodType<number, number | undefined>>(ttlMs: T) =>
  z
    .object({ ttlMs, heartbeatEveryMs: durationMs.min(LEASE_PACE.minHeartbeatEveryMs).optional() })
    .strict()
    .refine(
      (l: { ttlMs?: unknown; heartbeatEveryMs?: number }) =>
        l.heartbeatEveryMs === undefined || l.heartbeatEveryMs <= maxHeartbeatEveryMs(l.ttlMs as number),
      {
        message: `lease.heartbeatEveryMs must be at most ${LEASE_PACE.maxFractionOfTtl * 100}% of lease.ttlMs`,
        path: ['heartbeatEveryMs'],
      },
    );

export const RetrySchema = z
  .object({
    maxAttempts: z.number().int().min(1).max(1_000).optional(),
    backoffMs: durationMs.max(24 * 3600_000).optional(),
  })
  .strict();

export const UsageSchema = z
  .object({
    inputTokens: z.number().nonnegative().optional(),
    outputTokens: z.number().nonnegative().optional(),
    /** Cached input read (a prompt-cache hit), not counted in inputTokens. */
    cacheTokens: z.number().nonnegative().optional(),
    /** Cached input written (a prompt-cache entry created), not counted in inputTokens. */
    cacheWriteTokens: z.number().nonnegative().optional(),
    /** Of outputTokens, those the model spent reasoning (counted and priced as output; shown on their own). */
    reasoningTokens: z.number().nonnegative().optional(),
    model: z.string().max(200).optional(),
    costUsd: z.number().nonnegative().optional(),
    /** Tokens of usage records that had neither a price nor a reported cost (the worker fills it). */
    unpricedTokens: z.number().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
  })
  .strict();
export type Usage = z.infer<typeof UsageSchema>;

const stringMap = z.record(z.string(), z.string());

/**
 * A kind a worker runs, as a plan writes it: `kind` first, then the fields of the schema its
 * executor parses the spec with (the one `defineExecutor` is given). Refinements of the whole
 * spec do not come across: the caller adds them again.
 */
function planKind<Kind extends string, Shape extends z.ZodRawShape>(kind: Kind, spec: z.ZodObject<Shape>) {
  return z.object({ kind: z.literal(kind), ...spec.shape }).strict();
}

export const ShellSpecSchema = z
  .object({
    command: z.string().min(1).max(PLAN_LIMITS.maxCommand).describe('run by sh -c; its stdout is the output'),
    cwd: z.string().optional(),
    // A literal, or a variable the worker's operator lists in
    // worker.shell.secretEnv (resolved and redacted on the worker).
    env: z
      .record(
        z.string(),
        z.union([
          z.string(),
          z.object({ fromWorkerEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a variable name') }).strict(),
        ]),
      )
      .optional(),
    timeoutMs: durationMs.min(1).optional(),
  })
  .strict();
export type ShellSpec = z.infer<typeof ShellSpecSchema>;
export const ShellExecutorSchema = planKind('shell', ShellSpecSchema);

export const HttpSpecSchema = z
  .object({
    url: z.string().regex(/^https?:\/\/\S+$/, 'url must be an http(s) URL'),
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).optional(),
    headers: stringMap.optional(),
    body: z.unknown().optional(),
    timeoutMs: durationMs.min(1).optional(),
  })
  .strict();
export type HttpSpec = z.infer<typeof HttpSpecSchema>;
export const HttpExecutorSchema = planKind('http', HttpSpecSchema);

export const LlmSpecSchema = z
  .object({
    model: z.string().min(1),
    prompt: z.string().optional(),
    messages: z.array(ChatMessageSchema).min(1).optional(),
    maxTokens: z.number().int().min(1).optional(),
    timeoutMs: durationMs.min(1).optional(),
    modelRetry: ModelRetrySchema.optional(),
  })
  .strict()
  .refine(...onePromptOrMessages);
export type LlmSpec = z.infer<typeof LlmSpecSchema>;
export const LlmExecutorSchema = planKind('llm', LlmSpecSchema).refine(...onePromptOrMessages);

export { AgentSpecSchema, type AgentSpec } from './agent';
export const AgentExecutorSchema = planKind('agent', AgentSpecSchema)
  .refine(...onePromptOrMessages)
  .refine(...modelOrRole);

export const SleepSpecSchema = z.object({ ms: durationMs }).strict();
export const SleepExecutorSchema = planKind('sleep', SleepSpecSchema);

export const NoopSpecSchema = z.object({}).strict();
export const NoopExecutorSchema = planKind('noop', NoopSpecSchema);

/** The coding-agent CLIs the `agent-cli` kind runs (each one's binary is the worker's, `worker.agentClis`). */
export const AGENT_CLIS = ['claude-code', 'codex', 'gemini'] as const;

/**
 * A coding-agent CLI run headless in its streaming JSON mode (docs/agent-clis.md). The plan names
 * the CLI, never its binary; `args` are flags with their values, each pair allowed by the worker's
 * `allowArgs` for that CLI.
 */
export const AgentCliSpecSchema = z
  .object({
    cli: z.enum(AGENT_CLIS, { error: `must be one of ${AGENT_CLIS.join(', ')}` }),
    prompt: cliPrompt(PLAN_LIMITS.maxAgentPrompt),
    cwd: z.string().min(1).max(4_096).optional(),
    model: CLI_MODEL.optional(),
    // Flags and their values, checked pairwise against the worker's allowArgs (plan/agent-cli-args.ts).
    args: z.array(z.string().max(1_024)).max(64).optional(),
    timeoutMs: durationMs.min(1).optional(),
    // true: a git worktree of cwd per attempt, at HEAD; 'continue': at the task's last attempt's branch.
    worktree: z.union([z.boolean(), z.literal('continue')]).optional(),
  })
  .strict();
export type AgentCliSpec = z.infer<typeof AgentCliSpecSchema>;
export const AgentCliExecutorSchema = planKind('agent-cli', AgentCliSpecSchema);

/** A task queue an `activity` task may target, as `activityQueues` lists it. */
export const ActivityQueueSchema = z.string().min(1).max(PLAN_LIMITS.maxActivityName);

/**
 * Any Temporal activity, in any SDK language, on its own task queue, scheduled as the attempt
 * (docs/activities.md). Without heartbeats there is no lease: `startToCloseMs` is then the only
 * bound, so it is required.
 */
export const ActivityExecutorSchema = z
  .object({
    kind: z.literal('activity'),
    activityType: z.string().min(1).max(PLAN_LIMITS.maxActivityName),
    taskQueue: ActivityQueueSchema,
    input: z
      .unknown()
      .refine((input) => jsonBytes(input) <= PLAN_LIMITS.maxActivityInputBytes, {
        message: `input must be at most ${PLAN_LIMITS.maxActivityInputBytes} bytes as JSON`,
      })
      .optional(),
    startToCloseMs: durationMs.min(1).max(MAX_TIMEOUT_MS).optional(),
    heartbeat: z.enum(['required', 'optional']).optional(),
  })
  .strict()
  .refine((e) => e.heartbeat !== 'optional' || e.startToCloseMs !== undefined, {
    message: 'heartbeat "optional" needs startToCloseMs: without heartbeats it is the only bound on the attempt',
    path: ['startToCloseMs'],
  });
export type ActivityExecutorSpec = z.infer<typeof ActivityExecutorSchema>;

/**
 * A human gate: no activity runs. When its dependencies succeed the task goes straight to
 * adjudication (`TEAM_TASK_APPROVAL_REQUIRED`), holding no teammate and reserving no budget,
 * until someone with the right decides (docs/messaging.md).
 */
export const ApprovalExecutorSchema = z
  .object({
    kind: z.literal('approval'),
    /** Who may decide this task; narrows `governance.operators` (both must allow an actor when both are set). */
    approvers: z.array(OperatorNameSchema).min(1).max(PLAN_LIMITS.maxOperators).optional(),
    /** What the approver is asked, shown in the queue, the Web UI and the adjudication record. */
    prompt: z.string().max(2_000).optional(),
    /** Nobody decided within this time: the task is decided `onTimeout` (default reject). */
    timeoutMs: durationMs.min(1).max(MAX_TIMEOUT_MS).optional(),
    onTimeout: z.enum(['reject', 'accept']).optional(),
  })
  .strict();
export type ApprovalExecutorSpec = z.infer<typeof ApprovalExecutorSchema>;

/** Schemas by kind: the compiler holds each schema's `kind` to the name it is listed under. */
const byKind = <Schemas extends { [Kind in keyof Schemas]: z.ZodType<{ kind: Kind }> }>(schemas: Schemas) => schemas;

/** The kinds a worker runs (`worker.executors` enables them), each by its schema in a plan. */
const WORKER_EXECUTOR_SCHEMAS = byKind({
  shell: ShellExecutorSchema,
  http: HttpExecutorSchema,
  llm: LlmExecutorSchema,
  agent: AgentExecutorSchema,
  sleep: SleepExecutorSchema,
  noop: NoopExecutorSchema,
  'agent-cli': AgentCliExecutorSchema,
});

/** The kinds the workflow handles itself, with no executor on a worker. */
const WORKFLOW_EXECUTOR_SCHEMAS = byKind({
  activity: ActivityExecutorSchema,
  approval: ApprovalExecutorSchema,
  team: TeamExecutorSchema,
});

/**
 * Schemas of the kinds teamrun ships, the one list of them every other derives from; any other
 * kind is a custom one, checked by the worker that runs it. In this order everywhere they are
 * listed (the JSON Schema, `teamrun validate`): the worker's kinds, then the workflow's.
 */
export const BUILTIN_EXECUTOR_SCHEMAS = { ...WORKER_EXECUTOR_SCHEMAS, ...WORKFLOW_EXECUTOR_SCHEMAS } as const;

export type BuiltinExecutorKind = keyof typeof BUILTIN_EXECUTOR_SCHEMAS;
export type WorkerExecutorKind = keyof typeof WORKER_EXECUTOR_SCHEMAS;

// Object.keys types its answer string[]; these objects hold only the keys their types name.
export const BUILTIN_EXECUTOR_KINDS = Object.keys(BUILTIN_EXECUTOR_SCHEMAS) as ReadonlyArray<BuiltinExecutorKind>;
export const WORKER_EXECUTOR_KINDS = Object.keys(WORKER_EXECUTOR_SCHEMAS) as ReadonlyArray<WorkerExecutorKind>;

export function isBuiltinExecutorKind(kind: string): kind is BuiltinExecutorKind {
  return Object.hasOwn(BUILTIN_EXECUTOR_SCHEMAS, kind);
}

function builtinExecutorSchema(kind: string) {
  return isBuiltinExecutorKind(kind) ? BUILTIN_EXECUTOR_SCHEMAS[kind] : undefined;
}

/**
 * Names every plain object already answers to (`constructor`, `toString`, `__proto__`, ...):
 * refused as kinds, so no registry anywhere can mistake one for an entry it holds.
 */
export function isReservedName(name: string): boolean {
  return name in Object.prototype;
}

export const ExecutorSchema = z
  .object({ kind: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'executor kind must be 1..64 chars of [A-Za-z0-9._-]') })
  .catchall(z.unknown())
  .superRefine((executor, ctx) => {
    if (isReservedName(executor.kind)) {
      ctx.addIssue({ code: 'custom', message: `executor kind "${executor.kind}" is a reserved name`, path: ['kind'] });
      return;
    }
    const schema = builtinExecutorSchema(executor.kind);
    if (!schema) return;
    const parsed = schema.safeParse(executor);
    if (parsed.success) return;
    // As they are: an unknown field keeps its code and keys, for the did-you-mean.
    for (const issue of parsed.error.issues) ctx.addIssue({ ...issue });
  });
export type ExecutorSpec = z.infer<typeof ExecutorSchema>;

export const TaskSchema = z
  .object({
    key: z
      .string()
      .regex(/^[A-Za-z0-9._:-]{1,128}$/, 'task key must be 1..128 chars of [A-Za-z0-9._:-]')
      .describe('unique in the run'),
    title: z.string().max(PLAN_LIMITS.maxTitle).optional(),
    dependsOn: z
      .array(z.string())
      .max(PLAN_LIMITS.maxDependsOn)
      .default([])
      .describe('keys of tasks that must succeed first; their outputs reach this one'),
    priority: z.enum(['high', 'normal', 'low']).default('normal'),
    scope: z.array(z.string().min(1).max(500)).max(PLAN_LIMITS.maxScope).default([]),
    estimate: z
      .object({ tokens: z.number().nonnegative().optional(), usd: z.number().nonnegative().optional() })
      .strict()
      .optional(),
    retry: RetrySchema.optional(),
    lease: leaseSchema(durationMs.min(1000)).optional(),
    onLeaseLost: z.enum(['retry', 'adjudicate']).default('retry'),
    /** May this task add tasks to its run (`::teamrun-tasks::`, `teamrun add-tasks`, an llm answer's `tasks`)? */
    allowSpawn: z.boolean().optional().describe('may add tasks (add_tasks, delegate_to_<role>)'),
    /** No step of an attempt for this long stops it: `TEAM_TASK_STALLED` (docs/leases.md#stalls). */
    stallAfterMs: StallAfterMsSchema.optional(),
    /** The JSON Schema the task's output must match, or it fails `TEAM_TASK_OUTPUT_INVALID` (docs/agents.md). */
    outputSchema: OutputSchemaSchema.optional().describe('a JSON Schema the output must match'),
    executor: ExecutorSchema,
  })
  .strict();
export type TaskSpec = z.infer<typeof TaskSchema>;

export { BudgetSchema, LedgerIdSchema, type BudgetLimits } from './budget-schema';

export const TeamPlanSchema = z
  .object({
    name: z.string().regex(/^[A-Za-z0-9._-]{1,100}$/, 'name must be 1..100 chars of [A-Za-z0-9._-]'),
    teammates: z.number().int().min(1).max(PLAN_LIMITS.maxTeammates).default(2),
    lease: leaseSchema(durationMs.min(1000).default(30_000)).default({ ttlMs: 30_000 }),
    retry: z
      .object({
        maxAttempts: z.number().int().min(1).max(1_000).default(3),
        backoffMs: durationMs.max(24 * 3600_000).default(1_000),
      })
      .strict()
      .default({ maxAttempts: 3, backoffMs: 1_000 }),
    budget: BudgetSchema.default({}),
    /**
     * The scope of every task that names none (`["*"]`: the whole workspace, so such tasks run one at a time and
     * never beside a scoped one). Absent: a task without a scope claims nothing (docs/plans.md says why).
     */
    defaultScope: z.array(z.string().min(1).max(500)).max(PLAN_LIMITS.maxScope).optional(),
    governance: z
      .object({ operators: z.array(OperatorNameSchema).max(PLAN_LIMITS.maxOperators).optional() })
      .strict()
      .optional(),
    /** Every task's `stallAfterMs` unless it sets its own; absent: no stall watch. */
    stallAfterMs: StallAfterMsSchema.optional(),
    awaitAdjudication: z.boolean().default(true),
    adjudicationTimeoutMs: durationMs.min(1).default(7 * 24 * 3600_000),
    /** Task queues `activity` tasks may target; any other is refused at validation. */
    activityQueues: z.array(ActivityQueueSchema).max(PLAN_LIMITS.maxActivityQueues).optional(),
    /**
     * `teammateIdle`: an executor run as its own activity whenever
     * a teammate slot goes idle; its failures never touch a task.
     */
    hooks: z
      .object({
        teammateIdle: z
          .object({
            executor: ExecutorSchema.refine((e) => !Object.hasOwn(WORKFLOW_EXECUTOR_SCHEMAS, e.kind), {
              message: 'a hook runs on the worker: any executor kind but "approval", "activity" and "team"',
              path: ['kind'],
            }),
          })
          .strict()
          .optional(),
      })
      .strict()
      .optional(),
    /** How many levels of `team` tasks may nest below the root run (default 3; docs/teams.md). */
    maxTeamDepth: z.number().int().min(0).max(TEAM_DEPTH_MAX).optional(),
    /** This run's level in a tree of teams: 0 (absent) at the root; the parent's validation sets it in a child. */
    teamDepth: z.number().int().min(0).max(TEAM_DEPTH_MAX).optional(),
    /** A child run's place in its parent (the task and token it is the attempt of); the parent stamps it. */
    teamParent: TeamParentSchema.optional(),
    /** Set by the parent run as it starts this one as a child: who may cascade a stop into it (docs/teams.md). */
    parent: ParentLinkSchema.optional(),
    continueAsNewAfterEvents: z
      .number()
      .int()
      .min(CONTINUE_AS_NEW_EVENTS.min)
      .max(CONTINUE_AS_NEW_EVENTS.max)
      .optional(),
    /** Roles: agents declared once, that agent tasks name (`executor.role`) and planners delegate to. */
    agents: z
      .record(RoleNameSchema, AgentRoleSchema)
      .refine((roles) => Object.keys(roles).length <= AGENT_LIMITS.maxRoles, {
        message: `at most ${AGENT_LIMITS.maxRoles} roles`,
      })
      .optional(),
    tasks: z.array(TaskSchema).max(PLAN_LIMITS.maxTasks, `at most ${PLAN_LIMITS.maxTasks} tasks`),
  })
  .strict();

/** A plan as written by a user (defaults optional). */
export type TeamPlanInput = z.input<typeof TeamPlanSchema>;
/** A plan after validation, with every default filled in. */
export type TeamPlan = z.infer<typeof TeamPlanSchema>;
