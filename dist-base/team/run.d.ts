/**
 * One team run, as the workflow and the tests talk to it: a facade over the run's parts
 * (context.ts) and the rules that move them (claims, settlement, takeover, decisions, additions,
 * messaging). It holds no rule of its own: each method says which module answers it. Pure and
 * deterministic: the caller passes the time, and turns claims and cancellations into Temporal calls.
 */
import type { AbortVerdict, ActiveClaim, AddTasksRequest, AddTasksVerdict, AdjudicateRequest, AdjudicateVerdict, AdjudicationRecord, BudgetView, EventsPage, ExtendReservationRequest, ExtendReservationVerdict, EventsQuery, InterruptVerdict, MemberRecord, MessagesPage, MessagesQuery, ReadInboxAnswer, ReadInboxRequest, RunResult, RunState, RunStats, SendMessageRequest, SendMessageVerdict, StatusView, TaskView, TasksQuery, TightenBudgetRequest, TightenBudgetVerdict } from '../contract';
import { type ExecutorSpec, type TeamPlan } from '../plan/schema';
import type { SteerRequest } from '../plan/requests/agent';
import type { AgentProgress } from './types';
import { type TeamRunSnapshot } from './context';
import type { Cancellation } from './leases';
import type { IdleHookRequest } from './members';
import type { StopRequest } from './stop-channel';
import type { AttemptOutcome, Claim } from './types';
import * as handover from './handover';
import type { Wait } from './lifecycle';
import type { SpawnTreeEntry } from './graph';
export type { TeamRunSnapshot } from './context';
export type { TasksQuery } from '../contract';
/** The most task views one `tasks` query returns. */
export declare const MAX_TASKS_PAGE = 2000;
export declare class TeamRun {
    private readonly run;
    constructor(snapshot: TeamRunSnapshot);
    static start(plan: TeamPlan, workflowId: string, now: number): TeamRun;
    snapshot(): TeamRunSnapshot;
    /** Bumped on every change, so the workflow can wait for "something happened". */
    get version(): number;
    get workflowId(): string;
    get startedAt(): number;
    /** How the run asks whether its history has a rule change (Temporal's `patched`), so older histories replay. */
    usePatches(patched: (id: string) => boolean): void;
    claim(now: number): Claim[];
    settle(key: string, fencingToken: number, outcome: AttemptOutcome, now: number): void;
    /** Attempts the workflow must cancel now (interrupted, aborted, out of wall clock). */
    drainCancellations(): Cancellation[];
    /** Stops the workflow must send now, one per worker stop queue (after `drainCancellations`). */
    drainStops(): StopRequest[];
    /** Running attempts announce their worker's stop queue (`attemptRunning`); returns how many applied. */
    attemptsRunning(payload: unknown): number;
    /** An agent attempt's steps, reported by its worker (`agentSteps`): events, and which turn it is in. */
    recordAgentSteps(payload: unknown, now: number): number;
    /** Checks a steer (`steerTask`); answers the request with the running attempt's fencing token. */
    validateSteer(payload: unknown): SteerRequest & {
        fencingToken: number;
    };
    steered(request: SteerRequest, fencingToken: number, turn: number, now: number): void;
    /** Where a running agent is (its turn and last tool), if its worker reported a step of this attempt. */
    agentProgress(key: string, fencingToken: number): AgentProgress | undefined;
    /** True when the run may continue as new now: nothing in flight, or only attempts it can carry (handover.ts). */
    mayHandOver(): boolean;
    /** The `handOverAttempts` to send before continuing as new with attempts in flight, one per worker queue. */
    handOverRequests(): StopRequest[];
    /** Attempts this run's snapshot carried in, for the workflow to adopt. */
    adoptions(): handover.Adoption[];
    expireApprovals(now: number): void;
    drainIdleHooks(): Array<IdleHookRequest & {
        executor: ExecutorSpec;
    }>;
    hookEnded(hook: IdleHookRequest, outcome: {
        ok: boolean;
        error?: string;
    }, now: number): void;
    /** Records an event from the workflow shell (e.g. a continue-as-new boundary). */
    record(type: string, now: number, fields?: Record<string, unknown>): void;
    /**
     * An attempt began or ended a wait for its shared ledger's recovery (`ledger:waiting`, `ledger:admitted`): the
     * event says why it has not started, and the loop wakes to publish it.
     */
    ledgerWait(phase: 'waiting' | 'admitted', fields: Record<string, unknown>, now: number): void;
    wallDeadline(): number | null;
    wallExpired(now: number): void;
    phase(): 'working' | 'awaiting_adjudication' | 'done';
    /**
     * The run begins to wait: for what, and until when (lifecycle.ts). Waiting on adjudication only
     * starts that wait's clock, kept in the snapshot; a run handing over waits for its attempts only.
     */
    beginWait(now: number, handingOver: boolean): Wait;
    /** Nobody decided in time: the run closes `unresolved` with its adjudications still pending. */
    closeUnresolved(now: number): void;
    finish(now: number): RunResult;
    /** True once Temporal's cancellation was requested: the run closes as Canceled, with its result as the details. */
    get cancelling(): boolean;
    get activeCount(): number;
    get pendingAdjudications(): number;
    /** The shared ledger the plan names (`budget.ledger`), if any. */
    get ledgerId(): string | null;
    /** History length at which the workflow hands the run over to a fresh workflow run. */
    get continueAsNewAfterEvents(): number;
    validateInterrupt(payload: unknown): void;
    interrupt(payload: unknown, now: number): InterruptVerdict;
    validateAbort(payload: unknown): void;
    abort(payload: unknown, now: number): AbortVerdict;
    cancelRequested(now: number): void;
    validateAdjudicate(payload: unknown): AdjudicateRequest;
    adjudicate(payload: unknown, now: number): AdjudicateVerdict;
    validateTightenBudget(payload: unknown): TightenBudgetRequest;
    tightenBudget(payload: unknown, now: number): TightenBudgetVerdict;
    validateAddTasks(payload: unknown): {
        request: AddTasksRequest;
        depth: number;
    };
    addTasks(payload: unknown, now: number): AddTasksVerdict;
    validateSendMessage(payload: unknown): SendMessageRequest;
    sendMessage(payload: unknown, now: number): SendMessageVerdict;
    validateReadInbox(payload: unknown): ReadInboxRequest;
    readInbox(payload: unknown, now: number): ReadInboxAnswer;
    validateExtendReservation(payload: unknown): ExtendReservationRequest;
    extendReservation(payload: unknown, now: number): ExtendReservationVerdict;
    /** Gives back an extension the shared ledger refused after the run granted it. */
    withdrawExtension(key: string, fencingToken: number, extension: {
        tokens: number;
        usd: number;
    }): void;
    state(): RunState;
    status(now: number): StatusView;
    stats(): RunStats;
    budgetView(now: number): BudgetView;
    /**
     * The `tasks` query: one page, at most MAX_TASKS_PAGE views, so an answer stays far below
     * Temporal's payload limit on any run; page on with `offset`.
     */
    tasksPage(query?: TasksQuery): TaskView[];
    activeClaims(): ActiveClaim[];
    adjudicationsView(): AdjudicationRecord[];
    eventsView(query?: EventsQuery): EventsPage;
    messagesView(query?: MessagesQuery): MessagesPage;
    membersView(): MemberRecord[];
    /** Tasks added during the run, in all. */
    get addedTasks(): number;
    spawnTree(maxParents?: number, maxChildren?: number): SpawnTreeEntry[];
}
