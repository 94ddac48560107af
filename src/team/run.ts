/**
 * One team run, as the workflow and the tests talk to it: a facade over the run's parts
 * (context.ts) and the rules that move them (claims, settlement, takeover, decisions, additions,
 * messaging). It holds no rule of its own: each method says which module answers it. Pure and
 * deterministic: the caller passes the time, and turns claims and cancellations into Temporal calls.
 */
import type {
  AbortVerdict,
  ActiveClaim,
  AddTasksRequest,
  AddTasksVerdict,
  AdjudicateRequest,
  AdjudicateVerdict,
  AdjudicationRecord,
  BindCaseRequest,
  BindCaseVerdict,
  BudgetView,
  EventsPage,
  ExtendReservationRequest,
  ExtendReservationVerdict,
  EventsQuery,
  InterruptVerdict,
  MemberRecord,
  MessagesPage,
  MessagesQuery,
  ReadInboxAnswer,
  ReadInboxRequest,
  RunLedgerSummary,
  RunResult,
  RunState,
  RunStats,
  SendMessageRequest,
  SendMessageVerdict,
  StatusView,
  TaskView,
  TasksQuery,
  TightenBudgetRequest,
  TightenBudgetVerdict,
} from '../contract';
import { CONTINUE_AS_NEW_EVENTS, type ExecutorSpec, type TeamPlan } from '../plan/schema';
import type { SteerRequest } from '../plan/requests/agent';
import * as additions from './additions';
import * as agents from './agents';
import { Budget } from './budget';
import { claim } from './claims';
import { RunContext, type TeamRunSnapshot } from './context';
import * as decisions from './decisions';
import * as extensions from './extensions';
import { withChildAborts, type TeamCancellation } from './child-team';
import type { IdleHookRequest } from './members';
import * as messaging from './messaging';
import { settle } from './settlement';
import type { StopRequest } from './stop-channel';
import * as takeover from './takeover';
import * as tighten from './tighten';
import { newTaskState } from './task-state';
import type { AgentProgress, Attempt, AttemptOutcome, Claim, Reservation } from './types';
import * as handover from './handover';
import * as reopen from './reopen';
import * as lifecycle from './lifecycle';
import type { SpawnTreeEntry } from './graph';

export type { TeamRunSnapshot } from './context';
export type { TasksQuery } from '../contract';

/** The most task views one `tasks` query returns. */
export const MAX_TASKS_PAGE = 2_000;

export class TeamRun {
  private readonly run: RunContext;

  constructor(snapshot: TeamRunSnapshot) {
    this.run = new RunContext(snapshot);
  }

  static start(plan: TeamPlan, workflowId: string, now: number): TeamRun {
    const run = new TeamRun({
      plan,
      workflowId,
      startedAt: now,
      tasks: plan.tasks.map((spec) => newTaskState(spec.key, spec.dependsOn.length ? 'blocked' : 'ready', now)),
      budget: Budget.create(plan.budget).snapshot(),
      adjudications: [],
      decisions: {},
      abort: null,
      closed: null,
      cancelRequestedAt: null,
      executions: 0,
      maxConcurrent: 0,
      events: { nextSeq: 1, events: [] },
    });
    run.record('run:start', now, { name: plan.name, tasks: plan.tasks.length, teammates: plan.teammates });
    return run;
  }

  snapshot(): TeamRunSnapshot {
    return this.run.snapshot();
  }

  /** Bumped on every change, so the workflow can wait for "something happened". */
  get version(): number {
    return this.run.version;
  }

  get workflowId(): string {
    return this.run.workflowId;
  }

  // ---- the workflow's loop ----------------------------------------------------------------

  /** How the run asks whether its history has a rule change (Temporal's `patched`), so older histories replay. */
  usePatches(patched: (id: string) => boolean): void {
    this.run.patched = patched;
  }

  claim(now: number): Claim[] {
    return claim(this.run, now);
  }

  settle(key: string, fencingToken: number, outcome: AttemptOutcome, now: number): Reservation | null {
    return settle(this.run, key, fencingToken, outcome, now);
  }

  /** Attempts the workflow must cancel now (interrupted, aborted, out of wall clock). */
  drainCancellations(): TeamCancellation[] {
    return withChildAborts(this.run, this.run.leases.drainCancellations());
  }

  /** Stops the workflow must send now, one per worker stop queue (after `drainCancellations`). */
  drainStops(): StopRequest[] {
    return this.run.leases.drainStops();
  }

  /** Running attempts announce their worker's stop queue (`attemptRunning`); returns how many applied. */
  attemptsRunning(payload: unknown): number {
    const { applied, stopsQueued } = this.run.leases.announce(payload);
    if (stopsQueued > 0) this.run.touch();
    return applied;
  }

  /** The running attempt an `agentSteps` signal names, as it arrives (none: its steps are dropped). */
  agentStepsAttempt(payload: unknown): Attempt | undefined {
    return agents.stepsAttempt(this.run, payload);
  }

  /** The queue the running attempt of `key` (with this token) announced for its worker; undefined: none yet. */
  attemptQueue = (key: string, fencingToken: unknown): string | undefined =>
    agents.stepsAttempt(this.run, { key, fencingToken })?.stopQueue;

  /** An agent attempt's steps, reported by its worker (`agentSteps`), once proven: events, and which turn it is in. */
  recordAgentSteps(payload: unknown, now: number, proven: agents.StepsProven, attempt?: Attempt): number {
    return agents.recordSteps(this.run, payload, now, proven, attempt);
  }

  /** Checks a steer (`steerTask`); answers the request with the running attempt's fencing token. */
  validateSteer(payload: unknown): SteerRequest & { fencingToken: number } {
    return agents.validateSteer(this.run, payload);
  }

  steered(request: SteerRequest, fencingToken: number, turn: number, now: number): void {
    agents.steered(this.run, request, fencingToken, turn, now);
  }

  /** Where a running agent is (its turn and last tool), if its worker reported a step of this attempt. */
  agentProgress(key: string, fencingToken: number): AgentProgress | undefined {
    const progress = this.run.agents.get(key);
    return progress?.fencingToken === fencingToken ? progress : undefined;
  }

  /** Whether the attempt has shown the run it runs: its worker announced it, or reported an agent step. */
  heardFrom(key: string, fencingToken: number): boolean {
    const attempt = this.run.leases.get(key);
    return attempt?.fencingToken === fencingToken && (!!attempt.stopQueue || !!this.agentProgress(key, fencingToken));
  }

  /** True when the run may continue as new now: nothing in flight, or only attempts it can carry (handover.ts). */
  mayHandOver(): boolean {
    return handover.mayCarry(this.run.leases.values(), this.ledgerId !== null);
  }

  /** The `handOverAttempts` to send before continuing as new with attempts in flight, one per worker queue. */
  handOverRequests(): StopRequest[] {
    return handover.handOverRequests(this.run.leases.values());
  }

  /** Attempts this run's snapshot carried in, for the workflow to adopt. */
  adoptions(): handover.Adoption[] {
    return handover.adoptions(this.run);
  }

  expireApprovals(now: number): void {
    decisions.expireApprovals(this.run, now);
  }

  drainIdleHooks(): Array<IdleHookRequest & { executor: ExecutorSpec }> {
    return messaging.drainIdleHooks(this.run);
  }

  hookEnded(hook: IdleHookRequest, outcome: { ok: boolean; error?: string }, now: number): void {
    messaging.hookEnded(this.run, hook, outcome, now);
  }

  /** Records an event from the workflow shell (e.g. a continue-as-new boundary). */
  record(type: string, now: number, fields: Record<string, unknown> = {}): void {
    this.run.events.record(type, now, fields);
  }

  /**
   * An attempt's event on its shared ledger (`ledger:waiting`, `ledger:admitted`: a wait for its recovery, saying why
   * the attempt has not started; `task:scope-acquired`, `task:scope-released`): the loop wakes to publish it.
   */
  ledgerEvent(type: string, fields: Record<string, unknown>, now: number): void {
    this.run.events.record(type, now, fields);
    this.run.touch();
  }

  wallDeadline(): number | null {
    return this.run.wallDeadline();
  }

  wallExpired(now: number): void {
    this.run.wallExpired(now);
  }

  phase(): 'working' | 'awaiting_adjudication' | 'done' {
    return this.run.phase();
  }

  /**
   * The run begins to wait: for what, and until when (lifecycle.ts). Waiting on adjudication only
   * starts that wait's clock, kept in the snapshot; a run handing over waits for its attempts only.
   */
  beginWait(now: number, handingOver: boolean): lifecycle.Wait {
    return lifecycle.beginWait(this.run, now, handingOver);
  }

  /** Nobody decided in time: the run closes `unresolved` with its adjudications still pending. */
  closeUnresolved(now: number): void {
    lifecycle.closeUnresolved(this.run, now);
  }

  /** Closes the run; `ledger`: its shared ledger's status as it unregistered, for the result. */
  finish = (now: number, ledger?: RunLedgerSummary): RunResult => lifecycle.finish(this.run, now, ledger);

  /** True once Temporal's cancellation was requested: the run closes as Canceled, with its result as the details. */
  get cancelling(): boolean {
    return this.run.cancelRequestedAt !== null;
  }

  get activeCount(): number {
    return this.run.leases.size;
  }

  get pendingAdjudications(): number {
    return this.run.pendingAdjudications;
  }

  /** The shared ledger the plan names (`budget.ledger`), if any. */
  get ledgerId(): string | null {
    return this.run.plan.budget.ledger ?? null;
  }

  /** History length at which the workflow hands the run over to a fresh workflow run. */
  get continueAsNewAfterEvents(): number {
    return this.run.plan.continueAsNewAfterEvents ?? CONTINUE_AS_NEW_EVENTS.default;
  }

  // ---- what people send -------------------------------------------------------------------

  validateInterrupt(payload: unknown): void {
    takeover.validateInterrupt(this.run, payload);
  }

  interrupt(payload: unknown, now: number): InterruptVerdict {
    return takeover.interrupt(this.run, payload, now);
  }

  validateAbort(payload: unknown): void {
    takeover.validateAbort(this.run, payload);
  }

  /** Null, or the time since which the run's ledger must have aborted it for this abort to apply (takeover.ts). */
  abortNeedsLedger = (payload: unknown): { since: number } | null => takeover.abortNeedsLedger(this.run, payload);

  abort = (payload: unknown, now: number, ledger?: takeover.LedgerAbortAnswer): AbortVerdict =>
    takeover.abort(this.run, payload, now, ledger);

  cancelRequested = (now: number): void => takeover.cancelRequested(this.run, now);

  validateAdjudicate = (payload: unknown): AdjudicateRequest => decisions.validateAdjudicate(this.run, payload);

  adjudicate = (payload: unknown, now: number): AdjudicateVerdict => decisions.adjudicate(this.run, payload, now);

  /** `reopenTask` (reopen.ts): without `now`, its validator's checks only. */
  reopenTask = (payload: unknown, now?: number) => reopen.reopenTask(this.run, payload, now);

  validateBindCase = (payload: unknown): BindCaseRequest => decisions.validateBindCase(this.run, payload);

  bindCase = (payload: unknown, now: number): BindCaseVerdict => decisions.bindCase(this.run, payload, now);

  validateTightenBudget = (payload: unknown): TightenBudgetRequest => tighten.validateTightenBudget(this.run, payload);

  tightenBudget = (payload: unknown, now: number): TightenBudgetVerdict =>
    tighten.tightenBudget(this.run, payload, now);

  validateAddTasks(payload: unknown): { request: AddTasksRequest; depth: number } {
    return additions.validateAddTasks(this.run, payload);
  }

  addTasks(payload: unknown, now: number): AddTasksVerdict {
    return additions.addTasks(this.run, payload, now);
  }

  validateSendMessage(payload: unknown): SendMessageRequest {
    return messaging.validateSendMessage(this.run, payload);
  }

  sendMessage(payload: unknown, now: number): SendMessageVerdict {
    return messaging.sendMessage(this.run, payload, now);
  }

  validateReadInbox(payload: unknown): ReadInboxRequest {
    return messaging.validateReadInbox(this.run, payload);
  }

  readInbox(payload: unknown, now: number): ReadInboxAnswer {
    return messaging.readInbox(this.run, payload, now);
  }

  validateExtendReservation(payload: unknown): ExtendReservationRequest {
    return extensions.validateExtend(this.run, payload);
  }

  extendReservation(payload: unknown, now: number): ExtendReservationVerdict {
    return extensions.extend(this.run, payload, now);
  }

  /** Gives back an extension the shared ledger refused after the run granted it. */
  withdrawExtension(key: string, fencingToken: number, extension: { tokens: number; usd: number }): void {
    extensions.withdraw(this.run, key, fencingToken, extension);
  }

  // ---- views (queries) --------------------------------------------------------------------

  state(): RunState {
    return lifecycle.state(this.run);
  }

  status(now: number): StatusView {
    return lifecycle.status(this.run, now);
  }

  stats(): RunStats {
    return this.run.stats();
  }

  budgetView(now: number): BudgetView {
    return this.run.budget.view(now, this.run.startedAt);
  }

  /**
   * The `tasks` query: one page, at most MAX_TASKS_PAGE views, so an answer stays far below
   * Temporal's payload limit on any run; page on with `offset`.
   */
  tasksPage(query: TasksQuery = {}): TaskView[] {
    return this.run.graph.tasksView({ ...query, limit: Math.min(query.limit ?? 1_000, MAX_TASKS_PAGE) });
  }

  activeClaims(): ActiveClaim[] {
    return this.run.leases.claimsView();
  }

  adjudicationsView(): AdjudicationRecord[] {
    return this.run.adjudications.records;
  }

  eventsView(query: EventsQuery = {}): EventsPage {
    return this.run.events.page(query.after, query.limit);
  }

  messagesView(query: MessagesQuery = {}): MessagesPage {
    return this.run.mailbox.page(query);
  }

  membersView(): MemberRecord[] {
    return this.run.members.view();
  }

  /** Tasks added during the run, in all. */
  get addedTasks(): number {
    return this.run.spawns.count;
  }

  spawnTree(maxParents = 20, maxChildren = 20): SpawnTreeEntry[] {
    return this.run.graph.spawnTree(maxParents, maxChildren);
  }
}
