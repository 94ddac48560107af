import type { QueryDefinition, SignalDefinition, UpdateDefinition } from '@temporalio/common';
import type { AbortVerdict, ActiveClaim, AddTasksVerdict, AdjudicateVerdict, BudgetView, EventsQuery, ExtendReservationVerdict, InterruptVerdict, MemberRecord, MessagesPage, MessagesQuery, ReadInboxAnswer, RunResult, SendMessageVerdict, StatusView, SteerTaskRequest, SteerTaskVerdict, TaskActivityType, TasksQuery, TightenBudgetVerdict, WorkflowType } from '../contract';
/**
 * The public names of CONTRACT.md, defined once for the workflow and every client, each typed by
 * the contract's named shapes (src/contract): the workflow's handlers must return them.
 */
export declare const WORKFLOW_TYPE: WorkflowType;
export declare const ACTIVITY_TYPE: TaskActivityType;
/** A query of the run: its definition (name on the wire, argument and answer types) and what the Web UI says of it. */
export interface QueryMessage<Ret, Args extends unknown[]> {
    readonly definition: QueryDefinition<Ret, Args>;
    readonly description: string;
}
export interface SignalMessage<Args extends unknown[]> {
    readonly definition: SignalDefinition<Args>;
    readonly description: string;
}
/** An update takes one request; `omitted` is the request sent when a caller gives none (abortRun's `{}`). */
export interface UpdateMessage<Ret, Request, Omitted extends Request | undefined = Request | undefined> {
    readonly definition: UpdateDefinition<Ret, [Request]>;
    readonly description: string;
    readonly omitted: Omitted;
}
export type TeamRunMessage = QueryMessage<unknown, unknown[]> | SignalMessage<unknown[]> | UpdateMessage<unknown, unknown>;
/**
 * Every message a team run answers, declared once: the key is the handle's method (src/client/handle.ts), the
 * definition holds the name on the wire and the types, the description is what the Web UI lists. The workflow
 * registers a handler for each (handlers.ts, in this order), the handle gets a method for each, the CLI calls
 * those methods. Queries' answers carry an ISO twin beside each timestamp (`startedAtIso`), except `budget`,
 * `members` and `messages`.
 */
export declare const TEAM_RUN_MESSAGES: {
    readonly status: QueryMessage<{
        name: string;
        state: import("../contract").RunState;
        stats: {
            total: number;
            succeeded: number;
            failed: number;
            skipped: number;
            adjudication: number;
            running: number;
            pending: number;
        } & {};
        budget: {
            limits: import("../contract").BudgetLimits;
            used: {
                tasks: number;
                tokens: number;
                usd: number;
                wallMs: number;
            } & {};
            reserved: {
                tokens: number;
                usd: number;
            } & {};
            remaining: {
                tasks: number | null;
                tokens: number | null;
                usd: number | null;
                wallMs: number | null;
            } & {};
            stopped: boolean;
            reason: import("../contract").BudgetReason | null;
            usageUnknown: boolean;
        } & {};
        teammates: {
            requested: number;
            active: number;
        } & {};
        startedAt: number;
        pendingAdjudications: number;
        cancelRequestedAt?: number;
        executions: number;
        maxConcurrent: number;
    } & {
        cancelRequestedAtIso?: string | undefined;
        startedAtIso?: string | undefined;
    }, []>;
    readonly tasks: QueryMessage<({
        key: string;
        title: string;
        status: import("../contract").TaskStatus;
        attempts: number;
        fencingToken: number;
        dependsOn: string[];
        holder: string | null;
        startedAt: number | null;
        settledAt: number | null;
        lastError: string | null;
        skipReason: string | null;
        usage: import("../contract").UsageTotals;
        output?: unknown;
        parent: string | null;
        depth: number;
    } & {
        settledAtIso?: string | undefined;
        startedAtIso?: string | undefined;
    })[], [(TasksQuery | undefined)?]>;
    readonly activeClaims: QueryMessage<({
        key: string;
        holder: string;
        leaseId: string;
        fencingToken: number;
        attempt: number;
        activityId: string;
        startedAt: number;
        interrupted: boolean;
        interruption: ({
            requestId: string | null;
            actor: string | null;
            reason: string | null;
            evidenceDigest: string | null;
            requestedAt: number;
        } & {
            requestedAtIso?: string | undefined;
        }) | null;
    } & {
        startedAtIso?: string | undefined;
    })[], []>;
    readonly adjudications: QueryMessage<({
        key: string;
        code: import("../contract").AdjudicationCode | (string & {});
        reason: string | null;
        requestId: string | null;
        actor: string | null;
        evidenceDigest: string | null;
        holder: string;
        leaseId: string;
        fencingToken: number;
        requestedAt: number;
        usage: import("../contract").Usage | null;
        result: unknown;
        decision: ({
            decisionId: string;
            decision: import("../contract").Decision;
            actor: string | null;
            reason: string | null;
            decidedAt: number;
        } & {
            decidedAtIso?: string | undefined;
        }) | null;
    } & {
        requestedAtIso?: string | undefined;
    })[], []>;
    readonly budget: QueryMessage<BudgetView, []>;
    readonly events: QueryMessage<{
        events: ({
            [x: string]: unknown;
            seq: number;
            type: import("../contract").RunEventType | (string & {});
            at: number;
        } & {
            atIso?: string | undefined;
        })[];
        nextSeq: number;
    } & {}, [(EventsQuery | undefined)?]>;
    readonly members: QueryMessage<MemberRecord[], []>;
    readonly messages: QueryMessage<MessagesPage, [(MessagesQuery | undefined)?]>;
    /** Sends a mailbox message (update `sendMessage`); a refusal rejects with its code. */
    readonly sendMessage: UpdateMessage<SendMessageVerdict, {
        from: string;
        to: string;
        subject?: string | undefined;
        body: unknown;
        fencingToken?: number | undefined;
        requestId?: string | undefined;
        actor?: string | undefined;
    }, undefined>;
    /** Reads a running task's inbox (update `readInbox`), advancing its cursor unless `peek`. */
    readonly readInbox: UpdateMessage<ReadInboxAnswer, {
        key: string;
        fencingToken: number;
        peek?: boolean | undefined;
    }, undefined>;
    /** Human takeover, fire and forget (signal `interruptTask`): a refusal is only a `control:rejected` event. */
    readonly signalInterrupt: SignalMessage<[{
        key: string;
        fencingToken?: number | undefined;
        requestId?: string | undefined;
        actor?: string | undefined;
        reason?: string | undefined;
        evidenceDigest?: string | undefined;
    }]>;
    /** Coordinator abort, fire and forget (signal `abortRun`). */
    readonly signalAbort: SignalMessage<[({
        code?: string | undefined;
        reason?: string | undefined;
        requestId?: string | undefined;
        actor?: string | undefined;
        requireAdjudication?: boolean | undefined;
    } | undefined)?]>;
    /** Human takeover of the attempt holding `fencingToken` (update `interruptTask`). */
    readonly interrupt: UpdateMessage<InterruptVerdict, {
        key: string;
        fencingToken?: number | undefined;
        requestId?: string | undefined;
        actor?: string | undefined;
        reason?: string | undefined;
        evidenceDigest?: string | undefined;
    }, undefined>;
    /** Coordinator abort (update `abortRun`). */
    readonly abort: UpdateMessage<AbortVerdict, {
        code?: string | undefined;
        reason?: string | undefined;
        requestId?: string | undefined;
        actor?: string | undefined;
        requireAdjudication?: boolean | undefined;
    }, {
        code?: string | undefined;
        reason?: string | undefined;
        requestId?: string | undefined;
        actor?: string | undefined;
        requireAdjudication?: boolean | undefined;
    }>;
    /** Decides a task in adjudication (update `adjudicate`); a refused decision rejects with the reason. */
    readonly adjudicate: UpdateMessage<AdjudicateVerdict, {
        key: string;
        decision: "accept" | "reject" | "retry";
        decisionId: string;
        actor?: string | undefined;
        reason?: string | undefined;
        evidenceDigest?: string | undefined;
        result?: unknown;
    }, undefined>;
    /** Adds tasks to the running graph (update `addTasks`); a refusal rejects with its code and path. */
    readonly addTasks: UpdateMessage<AddTasksVerdict, {
        tasks: {
            key: string;
            title?: string | undefined;
            dependsOn?: string[] | undefined;
            priority?: "high" | "low" | "normal" | undefined;
            scope?: string[] | undefined;
            estimate?: {
                tokens?: number | undefined;
                usd?: number | undefined;
            } | undefined;
            retry?: {
                maxAttempts?: number | undefined;
                backoffMs?: number | undefined;
            } | undefined;
            lease?: {
                ttlMs: number;
                heartbeatEveryMs?: number | undefined;
            } | undefined;
            onLeaseLost?: "adjudicate" | "retry" | undefined;
            allowSpawn?: boolean | undefined;
            executor: {
                [x: string]: unknown;
                kind: string;
            };
        }[];
        parent?: string | undefined;
        fencingToken?: string | number | undefined;
        requestId: string;
        actor?: string | undefined;
    }, undefined>;
    /** A running attempt asks for more budget (update `extendReservation`); a refusal rejects with the budget reason. */
    readonly extendReservation: UpdateMessage<ExtendReservationVerdict, {
        key: string;
        fencingToken: number;
        tokens?: number | undefined;
        usd?: number | undefined;
        actor?: string | undefined;
    }, undefined>;
    /** Guidance for a running agent before its next model call (update `steerTask`); a refusal rejects with its code. */
    readonly steer: UpdateMessage<SteerTaskVerdict, SteerTaskRequest, undefined>;
    /** Lowers the run's limits while it runs (update `tightenBudget`); a loosening is refused `loosening_refused`. */
    readonly tightenBudget: UpdateMessage<TightenBudgetVerdict, {
        maxTasks?: number | undefined;
        maxTokens?: number | undefined;
        maxUsd?: number | undefined;
        maxWallMs?: number | undefined;
        requestId?: string | undefined;
        actor?: string | undefined;
    }, undefined>;
};
export type TeamRunMessages = typeof TEAM_RUN_MESSAGES;
export declare const statusQuery: QueryDefinition<{
    name: string;
    state: import("../contract").RunState;
    stats: {
        total: number;
        succeeded: number;
        failed: number;
        skipped: number;
        adjudication: number;
        running: number;
        pending: number;
    } & {};
    budget: {
        limits: import("../contract").BudgetLimits;
        used: {
            tasks: number;
            tokens: number;
            usd: number;
            wallMs: number;
        } & {};
        reserved: {
            tokens: number;
            usd: number;
        } & {};
        remaining: {
            tasks: number | null;
            tokens: number | null;
            usd: number | null;
            wallMs: number | null;
        } & {};
        stopped: boolean;
        reason: import("../contract").BudgetReason | null;
        usageUnknown: boolean;
    } & {};
    teammates: {
        requested: number;
        active: number;
    } & {};
    startedAt: number;
    pendingAdjudications: number;
    cancelRequestedAt?: number;
    executions: number;
    maxConcurrent: number;
} & {
    cancelRequestedAtIso?: string | undefined;
    startedAtIso?: string | undefined;
}, [], string>;
export declare const tasksQuery: QueryDefinition<({
    key: string;
    title: string;
    status: import("../contract").TaskStatus;
    attempts: number;
    fencingToken: number;
    dependsOn: string[];
    holder: string | null;
    startedAt: number | null;
    settledAt: number | null;
    lastError: string | null;
    skipReason: string | null;
    usage: import("../contract").UsageTotals;
    output?: unknown;
    parent: string | null;
    depth: number;
} & {
    settledAtIso?: string | undefined;
    startedAtIso?: string | undefined;
})[], [(TasksQuery | undefined)?], string>;
export declare const activeClaimsQuery: QueryDefinition<({
    key: string;
    holder: string;
    leaseId: string;
    fencingToken: number;
    attempt: number;
    activityId: string;
    startedAt: number;
    interrupted: boolean;
    interruption: ({
        requestId: string | null;
        actor: string | null;
        reason: string | null;
        evidenceDigest: string | null;
        requestedAt: number;
    } & {
        requestedAtIso?: string | undefined;
    }) | null;
} & {
    startedAtIso?: string | undefined;
})[], [], string>;
export declare const adjudicationsQuery: QueryDefinition<({
    key: string;
    code: import("../contract").AdjudicationCode | (string & {});
    reason: string | null;
    requestId: string | null;
    actor: string | null;
    evidenceDigest: string | null;
    holder: string;
    leaseId: string;
    fencingToken: number;
    requestedAt: number;
    usage: import("../contract").Usage | null;
    result: unknown;
    decision: ({
        decisionId: string;
        decision: import("../contract").Decision;
        actor: string | null;
        reason: string | null;
        decidedAt: number;
    } & {
        decidedAtIso?: string | undefined;
    }) | null;
} & {
    requestedAtIso?: string | undefined;
})[], [], string>;
export declare const budgetQuery: QueryDefinition<BudgetView, [], string>;
export declare const eventsQuery: QueryDefinition<{
    events: ({
        [x: string]: unknown;
        seq: number;
        type: import("../contract").RunEventType | (string & {});
        at: number;
    } & {
        atIso?: string | undefined;
    })[];
    nextSeq: number;
} & {}, [(EventsQuery | undefined)?], string>;
export declare const membersQuery: QueryDefinition<MemberRecord[], [], string>;
export declare const messagesQuery: QueryDefinition<MessagesPage, [(MessagesQuery | undefined)?], string>;
export declare const sendMessageUpdate: UpdateDefinition<SendMessageVerdict, [{
    from: string;
    to: string;
    subject?: string | undefined;
    body: unknown;
    fencingToken?: number | undefined;
    requestId?: string | undefined;
    actor?: string | undefined;
}], string>;
export declare const readInboxUpdate: UpdateDefinition<ReadInboxAnswer, [{
    key: string;
    fencingToken: number;
    peek?: boolean | undefined;
}], string>;
export declare const interruptTaskSignal: SignalDefinition<[{
    key: string;
    fencingToken?: number | undefined;
    requestId?: string | undefined;
    actor?: string | undefined;
    reason?: string | undefined;
    evidenceDigest?: string | undefined;
}], string>;
export declare const abortRunSignal: SignalDefinition<[({
    code?: string | undefined;
    reason?: string | undefined;
    requestId?: string | undefined;
    actor?: string | undefined;
    requireAdjudication?: boolean | undefined;
} | undefined)?], string>;
export declare const interruptTaskUpdate: UpdateDefinition<InterruptVerdict, [{
    key: string;
    fencingToken?: number | undefined;
    requestId?: string | undefined;
    actor?: string | undefined;
    reason?: string | undefined;
    evidenceDigest?: string | undefined;
}], string>;
export declare const abortRunUpdate: UpdateDefinition<AbortVerdict, [{
    code?: string | undefined;
    reason?: string | undefined;
    requestId?: string | undefined;
    actor?: string | undefined;
    requireAdjudication?: boolean | undefined;
}], string>;
export declare const adjudicateUpdate: UpdateDefinition<AdjudicateVerdict, [{
    key: string;
    decision: "accept" | "reject" | "retry";
    decisionId: string;
    actor?: string | undefined;
    reason?: string | undefined;
    evidenceDigest?: string | undefined;
    result?: unknown;
}], string>;
export declare const addTasksUpdate: UpdateDefinition<AddTasksVerdict, [{
    tasks: {
        key: string;
        title?: string | undefined;
        dependsOn?: string[] | undefined;
        priority?: "high" | "low" | "normal" | undefined;
        scope?: string[] | undefined;
        estimate?: {
            tokens?: number | undefined;
            usd?: number | undefined;
        } | undefined;
        retry?: {
            maxAttempts?: number | undefined;
            backoffMs?: number | undefined;
        } | undefined;
        lease?: {
            ttlMs: number;
            heartbeatEveryMs?: number | undefined;
        } | undefined;
        onLeaseLost?: "adjudicate" | "retry" | undefined;
        allowSpawn?: boolean | undefined;
        executor: {
            [x: string]: unknown;
            kind: string;
        };
    }[];
    parent?: string | undefined;
    fencingToken?: string | number | undefined;
    requestId: string;
    actor?: string | undefined;
}], string>;
export declare const extendReservationUpdate: UpdateDefinition<ExtendReservationVerdict, [{
    key: string;
    fencingToken: number;
    tokens?: number | undefined;
    usd?: number | undefined;
    actor?: string | undefined;
}], string>;
export declare const steerTaskUpdate: UpdateDefinition<SteerTaskVerdict, [SteerTaskRequest], string>;
export declare const tightenBudgetUpdate: UpdateDefinition<TightenBudgetVerdict, [{
    maxTasks?: number | undefined;
    maxTokens?: number | undefined;
    maxUsd?: number | undefined;
    maxWallMs?: number | undefined;
    requestId?: string | undefined;
    actor?: string | undefined;
}], string>;
/** Older names of contract types, kept for code that imports them from here (`messages.RunResult`). */
export type { ActiveClaim, AddTasksVerdict, BudgetView, RunResult, StatusView as RunStatusView };
