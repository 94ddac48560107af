/**
 * One team run, as the workflow and the tests talk to it: a facade over the run's parts
 * (context.ts) and the rules that move them (claims, settlement, takeover, decisions, additions,
 * messaging). It holds no rule of its own: each method says which module answers it. Pure and
 * deterministic: the caller passes the time, and turns claims and cancellations into Temporal calls.
 */
import type { LinkEnd } from './leases';
import type { LedgerTreeGrant, RunLedgerSummary, RunResult } from '../contract';
import { type ExecutorSpec, type TeamPlan } from '../plan/schema';
import type { SteerRequest } from '../plan/requests/agent';
import * as agents from './agents';
import { Budget } from './budget';
import { claim } from './claims';
import * as decisions from './decisions';
import { withChildAborts, type TeamCancellation } from './child-team';
import type { IdleHookRequest } from './members';
import * as messaging from './messaging';
import { settle } from './settlement';
import type { StopRequest } from './stop-channel';
import { newTaskState } from './task-state';
import type { AgentProgress, Attempt, AttemptOutcome, Claim, Reservation } from './types';
import * as handover from './handover';
import * as lifecycle from './lifecycle';
import { RunRequests } from './run-requests';
import { applyLedgerTree, ledgerAskOf, ledgerCountsTurns, spawnAsk } from './ledger-tree';

export type { TeamRunSnapshot } from './context';
export { MAX_TASKS_PAGE, type TasksQuery } from './run-views';

export class TeamRun extends RunRequests {
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

  /** Runs whose coordinating attempt ended, to abort now (src/team/coordinated.ts). */
  drainLinkEnds(): LinkEnd[] {
    return this.run.leases.drainLinkEnds();
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

  /** The plan names `governance.operators`: only they steer the run, and its attempts' results are confirmed. */
  get governed(): boolean {
    return !!this.run.plan.governance?.operators;
  }

  /**
   * An attempt's result its worker did not confirm (a governed run, workflows/completion.ts): its outcome is unknown,
   * so it settles as a lost lease (charged as one, leased again or adjudicated by `onLeaseLost`), and says why.
   */
  unprovenResult(key: string, fencingToken: number, why: string, now: number): AttemptOutcome {
    this.run.events.record('attempt:unproven-result', now, { key, fencingToken, why });
    return { kind: 'lease-lost' };
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

  /** The run registers with its shared ledger: what it adds waits for the answer (team/ledger-tree.ts). */
  ledgerRegistering(): void {
    this.run.ledgerTree = 'registering';
  }

  /** The ledger's answer to the registration: what the run works within (null: none, or an older worker's). */
  ledgerRegistered(ledgerId: string, grant: LedgerTreeGrant | null, now: number): void {
    applyLedgerTree(this.run, ledgerId, grant, now);
  }

  /** Whether the run waits for its ledger's answer to its registration. */
  get ledgerRegisteringNow(): boolean {
    return this.run.ledgerTree === 'registering';
  }

  /** What the run asks to hold of its ledger's `maxSpawnedTasks`. */
  ledgerSpawnAsk(): number {
    return spawnAsk(this.run);
  }

  /** Whether each agent model call is asked of the ledger too (its `maxTurns`). */
  get ledgerCountsTurns(): boolean {
    return ledgerCountsTurns(this.run);
  }

  /** What an extension the run granted asks of its shared ledger (null: nothing). */
  ledgerAskOf(request: { tokens?: number; usd?: number; turns?: number }): ReturnType<typeof ledgerAskOf> {
    return ledgerAskOf(this.run, request);
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
}
