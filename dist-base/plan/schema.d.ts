import { z } from 'zod';
import { jsonBytes } from './bytes';
import { MAX_TIMEOUT_MS } from './fields';
export { jsonBytes, MAX_TIMEOUT_MS };
/** Limits that keep one run's input and state well inside Temporal's payload and history limits. */
export declare const PLAN_LIMITS: {
    readonly maxTasks: 20000;
    /** Temporal allows 2,000 pending activities per workflow: half of them stay free for stops and foreign work. */
    readonly maxTeammates: 1000;
    readonly maxDependsOn: 1000;
    readonly maxScope: 64;
    readonly maxTitle: 500;
    readonly maxCommand: number;
    /** An `agent-cli` task's prompt; with its inbox it must still fit one argument of the CLI's command line. */
    readonly maxAgentPrompt: number;
    /** An `activity` task's `input`, as JSON: the same bound as a task's output. */
    readonly maxActivityInputBytes: number;
    readonly maxActivityQueues: 64;
    /** Temporal's own limit on activity type and task queue names is far larger; these keep history small. */
    readonly maxActivityName: 256;
    /** A plan's JSON as submitted: Temporal's 2 MB payload limit less room for the rest of the start request. */
    readonly maxPlanBytes: number;
    /**
     * The plan as a run carries it in the snapshot it hands to itself when it continues as new
     * (packed: see team/snapshot.ts): well under the payload limit, leaving room for the state.
     */
    readonly maxPackedPlanBytes: number;
};
/** Temporal's default limit on one payload (a workflow's input, a continue-as-new snapshot, an update). */
export declare const TEMPORAL_PAYLOAD_LIMIT_BYTES: number;
/**
 * When a run hands over to a fresh workflow run (continue-as-new): at this many history events,
 * or earlier when Temporal suggests it. Well under the 10,240 events at which Temporal warns;
 * the lower bound leaves every run room to make progress between handovers.
 */
export declare const CONTINUE_AS_NEW_EVENTS: {
    readonly min: 200;
    readonly max: 10000;
    readonly default: 8000;
};
/**
 * ... and at this many bytes of history, whatever the count: a few large signals (which
 * Temporal records before the workflow can refuse them) fill history long before many events
 * do. Temporal warns at 10 MB and terminates a run at 50 MB; the room above this one lets
 * in-flight attempts settle before the handover.
 */
export declare const CONTINUE_AS_NEW_HISTORY_BYTES: number;
export declare const RetrySchema: z.ZodObject<{
    maxAttempts: z.ZodOptional<z.ZodNumber>;
    backoffMs: z.ZodOptional<z.ZodNumber>;
}, z.core.$strict>;
export declare const UsageSchema: z.ZodObject<{
    inputTokens: z.ZodOptional<z.ZodNumber>;
    outputTokens: z.ZodOptional<z.ZodNumber>;
    cacheTokens: z.ZodOptional<z.ZodNumber>;
    model: z.ZodOptional<z.ZodString>;
    costUsd: z.ZodOptional<z.ZodNumber>;
    unpricedTokens: z.ZodOptional<z.ZodNumber>;
}, z.core.$strict>;
export type Usage = z.infer<typeof UsageSchema>;
export declare const ShellSpecSchema: z.ZodObject<{
    command: z.ZodString;
    cwd: z.ZodOptional<z.ZodString>;
    env: z.ZodOptional<z.ZodRecord<z.ZodString, z.ZodUnion<readonly [z.ZodString, z.ZodObject<{
        fromWorkerEnv: z.ZodString;
    }, z.core.$strict>]>>>;
    timeoutMs: z.ZodOptional<z.ZodNumber>;
}, z.core.$strict>;
export type ShellSpec = z.infer<typeof ShellSpecSchema>;
export declare const ShellExecutorSchema: z.ZodObject<{
    kind: z.ZodLiteral<"shell">;
    command: z.ZodString;
    cwd: z.ZodOptional<z.ZodString>;
    env: z.ZodOptional<z.ZodRecord<z.ZodString, z.ZodUnion<readonly [z.ZodString, z.ZodObject<{
        fromWorkerEnv: z.ZodString;
    }, z.core.$strict>]>>>;
    timeoutMs: z.ZodOptional<z.ZodNumber>;
}, z.core.$strict>;
export declare const HttpSpecSchema: z.ZodObject<{
    url: z.ZodString;
    method: z.ZodOptional<z.ZodEnum<{
        DELETE: "DELETE";
        GET: "GET";
        PATCH: "PATCH";
        POST: "POST";
        PUT: "PUT";
    }>>;
    headers: z.ZodOptional<z.ZodRecord<z.ZodString, z.ZodString>>;
    body: z.ZodOptional<z.ZodUnknown>;
    timeoutMs: z.ZodOptional<z.ZodNumber>;
}, z.core.$strict>;
export type HttpSpec = z.infer<typeof HttpSpecSchema>;
export declare const HttpExecutorSchema: z.ZodObject<{
    kind: z.ZodLiteral<"http">;
    url: z.ZodString;
    method: z.ZodOptional<z.ZodEnum<{
        DELETE: "DELETE";
        GET: "GET";
        PATCH: "PATCH";
        POST: "POST";
        PUT: "PUT";
    }>>;
    headers: z.ZodOptional<z.ZodRecord<z.ZodString, z.ZodString>>;
    body: z.ZodOptional<z.ZodUnknown>;
    timeoutMs: z.ZodOptional<z.ZodNumber>;
}, z.core.$strict>;
export declare const LlmSpecSchema: z.ZodObject<{
    model: z.ZodString;
    prompt: z.ZodOptional<z.ZodString>;
    messages: z.ZodOptional<z.ZodArray<z.ZodObject<{
        role: z.ZodEnum<{
            assistant: "assistant";
            system: "system";
            user: "user";
        }>;
        content: z.ZodString;
    }, z.core.$strict>>>;
    maxTokens: z.ZodOptional<z.ZodNumber>;
    timeoutMs: z.ZodOptional<z.ZodNumber>;
}, z.core.$strict>;
export type LlmSpec = z.infer<typeof LlmSpecSchema>;
export declare const LlmExecutorSchema: z.ZodObject<{
    kind: z.ZodLiteral<"llm">;
    model: z.ZodString;
    prompt: z.ZodOptional<z.ZodString>;
    messages: z.ZodOptional<z.ZodArray<z.ZodObject<{
        role: z.ZodEnum<{
            assistant: "assistant";
            system: "system";
            user: "user";
        }>;
        content: z.ZodString;
    }, z.core.$strict>>>;
    maxTokens: z.ZodOptional<z.ZodNumber>;
    timeoutMs: z.ZodOptional<z.ZodNumber>;
}, z.core.$strict>;
export { AgentSpecSchema, type AgentSpec } from './agent';
export declare const AgentExecutorSchema: z.ZodObject<{
    model: z.ZodString;
    instructions: z.ZodOptional<z.ZodString>;
    prompt: z.ZodOptional<z.ZodString>;
    messages: z.ZodOptional<z.ZodArray<z.ZodObject<{
        role: z.ZodEnum<{
            assistant: "assistant";
            system: "system";
            user: "user";
        }>;
        content: z.ZodString;
    }, z.core.$strict>>>;
    tools: z.ZodOptional<z.ZodArray<z.ZodString>>;
    maxTurns: z.ZodOptional<z.ZodNumber>;
    maxToolCalls: z.ZodOptional<z.ZodNumber>;
    maxTokens: z.ZodOptional<z.ZodNumber>;
    turnTimeoutMs: z.ZodOptional<z.ZodNumber>;
    toolTimeoutMs: z.ZodOptional<z.ZodNumber>;
    kind: z.ZodLiteral<"agent">;
}, z.core.$strict>;
export declare const SleepSpecSchema: z.ZodObject<{
    ms: z.ZodNumber;
}, z.core.$strict>;
export declare const SleepExecutorSchema: z.ZodObject<{
    kind: z.ZodLiteral<"sleep">;
    ms: z.ZodNumber;
}, z.core.$strict>;
export declare const NoopSpecSchema: z.ZodObject<{}, z.core.$strict>;
export declare const NoopExecutorSchema: z.ZodObject<{
    kind: z.ZodLiteral<"noop">;
}, z.core.$strict>;
/** The coding-agent CLIs the `agent-cli` kind runs (each one's binary is the worker's, `worker.agentClis`). */
export declare const AGENT_CLIS: readonly ['claude-code', 'codex', 'gemini'];
/**
 * A coding-agent CLI run headless in its streaming JSON mode (docs/agent-clis.md). The plan names
 * the CLI, never its binary; `args` must each be listed in the worker's `allowArgs` for that CLI.
 */
export declare const AgentCliSpecSchema: z.ZodObject<{
    cli: z.ZodEnum<{
        "claude-code": "claude-code";
        codex: "codex";
        gemini: "gemini";
    }>;
    prompt: z.ZodString;
    cwd: z.ZodOptional<z.ZodString>;
    model: z.ZodOptional<z.ZodString>;
    args: z.ZodOptional<z.ZodArray<z.ZodString>>;
    timeoutMs: z.ZodOptional<z.ZodNumber>;
    worktree: z.ZodOptional<z.ZodBoolean>;
}, z.core.$strict>;
export type AgentCliSpec = z.infer<typeof AgentCliSpecSchema>;
export declare const AgentCliExecutorSchema: z.ZodObject<{
    kind: z.ZodLiteral<"agent-cli">;
    cli: z.ZodEnum<{
        "claude-code": "claude-code";
        codex: "codex";
        gemini: "gemini";
    }>;
    prompt: z.ZodString;
    cwd: z.ZodOptional<z.ZodString>;
    model: z.ZodOptional<z.ZodString>;
    args: z.ZodOptional<z.ZodArray<z.ZodString>>;
    timeoutMs: z.ZodOptional<z.ZodNumber>;
    worktree: z.ZodOptional<z.ZodBoolean>;
}, z.core.$strict>;
/** A task queue an `activity` task may target, as `activityQueues` lists it. */
export declare const ActivityQueueSchema: z.ZodString;
/**
 * Any Temporal activity, in any SDK language, on its own task queue, scheduled as the attempt
 * (docs/activities.md). Without heartbeats there is no lease: `startToCloseMs` is then the only
 * bound, so it is required.
 */
export declare const ActivityExecutorSchema: z.ZodObject<{
    kind: z.ZodLiteral<"activity">;
    activityType: z.ZodString;
    taskQueue: z.ZodString;
    input: z.ZodOptional<z.ZodUnknown>;
    startToCloseMs: z.ZodOptional<z.ZodNumber>;
    heartbeat: z.ZodOptional<z.ZodEnum<{
        optional: "optional";
        required: "required";
    }>>;
}, z.core.$strict>;
export type ActivityExecutorSpec = z.infer<typeof ActivityExecutorSchema>;
/**
 * A human gate: no activity runs. When its dependencies succeed the task goes straight to
 * adjudication (`TEAM_TASK_APPROVAL_REQUIRED`), holding no teammate and reserving no budget,
 * until someone with the right decides (docs/messaging.md).
 */
export declare const ApprovalExecutorSchema: z.ZodObject<{
    kind: z.ZodLiteral<"approval">;
    approvers: z.ZodOptional<z.ZodArray<z.ZodString>>;
    prompt: z.ZodOptional<z.ZodString>;
    timeoutMs: z.ZodOptional<z.ZodNumber>;
    onTimeout: z.ZodOptional<z.ZodEnum<{
        accept: "accept";
        reject: "reject";
    }>>;
}, z.core.$strict>;
export type ApprovalExecutorSpec = z.infer<typeof ApprovalExecutorSchema>;
/** The kinds a worker runs (`worker.executors` enables them), each by its schema in a plan. */
declare const WORKER_EXECUTOR_SCHEMAS: {
    shell: z.ZodObject<{
        kind: z.ZodLiteral<"shell">;
        command: z.ZodString;
        cwd: z.ZodOptional<z.ZodString>;
        env: z.ZodOptional<z.ZodRecord<z.ZodString, z.ZodUnion<readonly [z.ZodString, z.ZodObject<{
            fromWorkerEnv: z.ZodString;
        }, z.core.$strict>]>>>;
        timeoutMs: z.ZodOptional<z.ZodNumber>;
    }, z.core.$strict>;
    http: z.ZodObject<{
        kind: z.ZodLiteral<"http">;
        url: z.ZodString;
        method: z.ZodOptional<z.ZodEnum<{
            DELETE: "DELETE";
            GET: "GET";
            PATCH: "PATCH";
            POST: "POST";
            PUT: "PUT";
        }>>;
        headers: z.ZodOptional<z.ZodRecord<z.ZodString, z.ZodString>>;
        body: z.ZodOptional<z.ZodUnknown>;
        timeoutMs: z.ZodOptional<z.ZodNumber>;
    }, z.core.$strict>;
    llm: z.ZodObject<{
        kind: z.ZodLiteral<"llm">;
        model: z.ZodString;
        prompt: z.ZodOptional<z.ZodString>;
        messages: z.ZodOptional<z.ZodArray<z.ZodObject<{
            role: z.ZodEnum<{
                assistant: "assistant";
                system: "system";
                user: "user";
            }>;
            content: z.ZodString;
        }, z.core.$strict>>>;
        maxTokens: z.ZodOptional<z.ZodNumber>;
        timeoutMs: z.ZodOptional<z.ZodNumber>;
    }, z.core.$strict>;
    agent: z.ZodObject<{
        model: z.ZodString;
        instructions: z.ZodOptional<z.ZodString>;
        prompt: z.ZodOptional<z.ZodString>;
        messages: z.ZodOptional<z.ZodArray<z.ZodObject<{
            role: z.ZodEnum<{
                assistant: "assistant";
                system: "system";
                user: "user";
            }>;
            content: z.ZodString;
        }, z.core.$strict>>>;
        tools: z.ZodOptional<z.ZodArray<z.ZodString>>;
        maxTurns: z.ZodOptional<z.ZodNumber>;
        maxToolCalls: z.ZodOptional<z.ZodNumber>;
        maxTokens: z.ZodOptional<z.ZodNumber>;
        turnTimeoutMs: z.ZodOptional<z.ZodNumber>;
        toolTimeoutMs: z.ZodOptional<z.ZodNumber>;
        kind: z.ZodLiteral<"agent">;
    }, z.core.$strict>;
    sleep: z.ZodObject<{
        kind: z.ZodLiteral<"sleep">;
        ms: z.ZodNumber;
    }, z.core.$strict>;
    noop: z.ZodObject<{
        kind: z.ZodLiteral<"noop">;
    }, z.core.$strict>;
    'agent-cli': z.ZodObject<{
        kind: z.ZodLiteral<"agent-cli">;
        cli: z.ZodEnum<{
            "claude-code": "claude-code";
            codex: "codex";
            gemini: "gemini";
        }>;
        prompt: z.ZodString;
        cwd: z.ZodOptional<z.ZodString>;
        model: z.ZodOptional<z.ZodString>;
        args: z.ZodOptional<z.ZodArray<z.ZodString>>;
        timeoutMs: z.ZodOptional<z.ZodNumber>;
        worktree: z.ZodOptional<z.ZodBoolean>;
    }, z.core.$strict>;
};
/**
 * Schemas of the kinds teamrun ships, the one list of them every other derives from; any other
 * kind is a custom one, checked by the worker that runs it. In this order everywhere they are
 * listed (the JSON Schema, `teamrun validate`): the worker's kinds, then the workflow's.
 */
export declare const BUILTIN_EXECUTOR_SCHEMAS: {
    readonly shell: z.ZodObject<{
        kind: z.ZodLiteral<"shell">;
        command: z.ZodString;
        cwd: z.ZodOptional<z.ZodString>;
        env: z.ZodOptional<z.ZodRecord<z.ZodString, z.ZodUnion<readonly [z.ZodString, z.ZodObject<{
            fromWorkerEnv: z.ZodString;
        }, z.core.$strict>]>>>;
        timeoutMs: z.ZodOptional<z.ZodNumber>;
    }, z.core.$strict>;
    readonly http: z.ZodObject<{
        kind: z.ZodLiteral<"http">;
        url: z.ZodString;
        method: z.ZodOptional<z.ZodEnum<{
            DELETE: "DELETE";
            GET: "GET";
            PATCH: "PATCH";
            POST: "POST";
            PUT: "PUT";
        }>>;
        headers: z.ZodOptional<z.ZodRecord<z.ZodString, z.ZodString>>;
        body: z.ZodOptional<z.ZodUnknown>;
        timeoutMs: z.ZodOptional<z.ZodNumber>;
    }, z.core.$strict>;
    readonly llm: z.ZodObject<{
        kind: z.ZodLiteral<"llm">;
        model: z.ZodString;
        prompt: z.ZodOptional<z.ZodString>;
        messages: z.ZodOptional<z.ZodArray<z.ZodObject<{
            role: z.ZodEnum<{
                assistant: "assistant";
                system: "system";
                user: "user";
            }>;
            content: z.ZodString;
        }, z.core.$strict>>>;
        maxTokens: z.ZodOptional<z.ZodNumber>;
        timeoutMs: z.ZodOptional<z.ZodNumber>;
    }, z.core.$strict>;
    readonly agent: z.ZodObject<{
        model: z.ZodString;
        instructions: z.ZodOptional<z.ZodString>;
        prompt: z.ZodOptional<z.ZodString>;
        messages: z.ZodOptional<z.ZodArray<z.ZodObject<{
            role: z.ZodEnum<{
                assistant: "assistant";
                system: "system";
                user: "user";
            }>;
            content: z.ZodString;
        }, z.core.$strict>>>;
        tools: z.ZodOptional<z.ZodArray<z.ZodString>>;
        maxTurns: z.ZodOptional<z.ZodNumber>;
        maxToolCalls: z.ZodOptional<z.ZodNumber>;
        maxTokens: z.ZodOptional<z.ZodNumber>;
        turnTimeoutMs: z.ZodOptional<z.ZodNumber>;
        toolTimeoutMs: z.ZodOptional<z.ZodNumber>;
        kind: z.ZodLiteral<"agent">;
    }, z.core.$strict>;
    readonly sleep: z.ZodObject<{
        kind: z.ZodLiteral<"sleep">;
        ms: z.ZodNumber;
    }, z.core.$strict>;
    readonly noop: z.ZodObject<{
        kind: z.ZodLiteral<"noop">;
    }, z.core.$strict>;
    readonly 'agent-cli': z.ZodObject<{
        kind: z.ZodLiteral<"agent-cli">;
        cli: z.ZodEnum<{
            "claude-code": "claude-code";
            codex: "codex";
            gemini: "gemini";
        }>;
        prompt: z.ZodString;
        cwd: z.ZodOptional<z.ZodString>;
        model: z.ZodOptional<z.ZodString>;
        args: z.ZodOptional<z.ZodArray<z.ZodString>>;
        timeoutMs: z.ZodOptional<z.ZodNumber>;
        worktree: z.ZodOptional<z.ZodBoolean>;
    }, z.core.$strict>;
    readonly activity: z.ZodObject<{
        kind: z.ZodLiteral<"activity">;
        activityType: z.ZodString;
        taskQueue: z.ZodString;
        input: z.ZodOptional<z.ZodUnknown>;
        startToCloseMs: z.ZodOptional<z.ZodNumber>;
        heartbeat: z.ZodOptional<z.ZodEnum<{
            optional: "optional";
            required: "required";
        }>>;
    }, z.core.$strict>;
    readonly approval: z.ZodObject<{
        kind: z.ZodLiteral<"approval">;
        approvers: z.ZodOptional<z.ZodArray<z.ZodString>>;
        prompt: z.ZodOptional<z.ZodString>;
        timeoutMs: z.ZodOptional<z.ZodNumber>;
        onTimeout: z.ZodOptional<z.ZodEnum<{
            accept: "accept";
            reject: "reject";
        }>>;
    }, z.core.$strict>;
};
export type BuiltinExecutorKind = keyof typeof BUILTIN_EXECUTOR_SCHEMAS;
export type WorkerExecutorKind = keyof typeof WORKER_EXECUTOR_SCHEMAS;
export declare const BUILTIN_EXECUTOR_KINDS: ReadonlyArray<BuiltinExecutorKind>;
export declare const WORKER_EXECUTOR_KINDS: ReadonlyArray<WorkerExecutorKind>;
export declare function isBuiltinExecutorKind(kind: string): kind is BuiltinExecutorKind;
/**
 * Names every plain object already answers to (`constructor`, `toString`, `__proto__`, ...):
 * refused as kinds, so no registry anywhere can mistake one for an entry it holds.
 */
export declare function isReservedName(name: string): boolean;
export declare const ExecutorSchema: z.ZodObject<{
    kind: z.ZodString;
}, z.core.$catchall<z.ZodUnknown>>;
export type ExecutorSpec = z.infer<typeof ExecutorSchema>;
export declare const TaskSchema: z.ZodObject<{
    key: z.ZodString;
    title: z.ZodOptional<z.ZodString>;
    dependsOn: z.ZodDefault<z.ZodArray<z.ZodString>>;
    priority: z.ZodDefault<z.ZodEnum<{
        high: "high";
        low: "low";
        normal: "normal";
    }>>;
    scope: z.ZodDefault<z.ZodArray<z.ZodString>>;
    estimate: z.ZodOptional<z.ZodObject<{
        tokens: z.ZodOptional<z.ZodNumber>;
        usd: z.ZodOptional<z.ZodNumber>;
    }, z.core.$strict>>;
    retry: z.ZodOptional<z.ZodObject<{
        maxAttempts: z.ZodOptional<z.ZodNumber>;
        backoffMs: z.ZodOptional<z.ZodNumber>;
    }, z.core.$strict>>;
    lease: z.ZodOptional<z.ZodObject<{
        ttlMs: z.ZodNumber;
        heartbeatEveryMs: z.ZodOptional<z.ZodNumber>;
    }, z.core.$strict>>;
    onLeaseLost: z.ZodDefault<z.ZodEnum<{
        adjudicate: "adjudicate";
        retry: "retry";
    }>>;
    allowSpawn: z.ZodOptional<z.ZodBoolean>;
    executor: z.ZodObject<{
        kind: z.ZodString;
    }, z.core.$catchall<z.ZodUnknown>>;
}, z.core.$strict>;
export type TaskSpec = z.infer<typeof TaskSchema>;
/** A shared ledger's id (`teamrun ledger create <id>`), as a plan's `budget.ledger` names it. */
export declare const LedgerIdSchema: z.ZodString;
export declare const BudgetSchema: z.ZodObject<{
    maxTasks: z.ZodOptional<z.ZodNumber>;
    maxTokens: z.ZodOptional<z.ZodNumber>;
    maxUsd: z.ZodOptional<z.ZodNumber>;
    maxWallMs: z.ZodOptional<z.ZodNumber>;
    ledger: z.ZodOptional<z.ZodString>;
    maxSpawnedTasks: z.ZodOptional<z.ZodNumber>;
    maxDepth: z.ZodOptional<z.ZodNumber>;
}, z.core.$strict>;
export type BudgetLimits = z.infer<typeof BudgetSchema>;
export declare const TeamPlanSchema: z.ZodObject<{
    name: z.ZodString;
    teammates: z.ZodDefault<z.ZodNumber>;
    lease: z.ZodDefault<z.ZodObject<{
        ttlMs: z.ZodDefault<z.ZodNumber>;
        heartbeatEveryMs: z.ZodOptional<z.ZodNumber>;
    }, z.core.$strict>>;
    retry: z.ZodDefault<z.ZodObject<{
        maxAttempts: z.ZodDefault<z.ZodNumber>;
        backoffMs: z.ZodDefault<z.ZodNumber>;
    }, z.core.$strict>>;
    budget: z.ZodDefault<z.ZodObject<{
        maxTasks: z.ZodOptional<z.ZodNumber>;
        maxTokens: z.ZodOptional<z.ZodNumber>;
        maxUsd: z.ZodOptional<z.ZodNumber>;
        maxWallMs: z.ZodOptional<z.ZodNumber>;
        ledger: z.ZodOptional<z.ZodString>;
        maxSpawnedTasks: z.ZodOptional<z.ZodNumber>;
        maxDepth: z.ZodOptional<z.ZodNumber>;
    }, z.core.$strict>>;
    defaultScope: z.ZodOptional<z.ZodArray<z.ZodString>>;
    governance: z.ZodOptional<z.ZodObject<{
        operators: z.ZodOptional<z.ZodArray<z.ZodString>>;
    }, z.core.$strict>>;
    awaitAdjudication: z.ZodDefault<z.ZodBoolean>;
    adjudicationTimeoutMs: z.ZodDefault<z.ZodNumber>;
    activityQueues: z.ZodOptional<z.ZodArray<z.ZodString>>;
    hooks: z.ZodOptional<z.ZodObject<{
        teammateIdle: z.ZodOptional<z.ZodObject<{
            executor: z.ZodObject<{
                kind: z.ZodString;
            }, z.core.$catchall<z.ZodUnknown>>;
        }, z.core.$strict>>;
    }, z.core.$strict>>;
    continueAsNewAfterEvents: z.ZodOptional<z.ZodNumber>;
    tasks: z.ZodArray<z.ZodObject<{
        key: z.ZodString;
        title: z.ZodOptional<z.ZodString>;
        dependsOn: z.ZodDefault<z.ZodArray<z.ZodString>>;
        priority: z.ZodDefault<z.ZodEnum<{
            high: "high";
            low: "low";
            normal: "normal";
        }>>;
        scope: z.ZodDefault<z.ZodArray<z.ZodString>>;
        estimate: z.ZodOptional<z.ZodObject<{
            tokens: z.ZodOptional<z.ZodNumber>;
            usd: z.ZodOptional<z.ZodNumber>;
        }, z.core.$strict>>;
        retry: z.ZodOptional<z.ZodObject<{
            maxAttempts: z.ZodOptional<z.ZodNumber>;
            backoffMs: z.ZodOptional<z.ZodNumber>;
        }, z.core.$strict>>;
        lease: z.ZodOptional<z.ZodObject<{
            ttlMs: z.ZodNumber;
            heartbeatEveryMs: z.ZodOptional<z.ZodNumber>;
        }, z.core.$strict>>;
        onLeaseLost: z.ZodDefault<z.ZodEnum<{
            adjudicate: "adjudicate";
            retry: "retry";
        }>>;
        allowSpawn: z.ZodOptional<z.ZodBoolean>;
        executor: z.ZodObject<{
            kind: z.ZodString;
        }, z.core.$catchall<z.ZodUnknown>>;
    }, z.core.$strict>>;
}, z.core.$strict>;
/** A plan as written by a user (defaults optional). */
export type TeamPlanInput = z.input<typeof TeamPlanSchema>;
/** A plan after validation, with every default filled in. */
export type TeamPlan = z.infer<typeof TeamPlanSchema>;
