/**
 * The workflow side of an attempt: launch its activity (runTask on teamrun's queue, or a foreign
 * activity on its own) in a cancellation scope of its own, settle the run from what Temporal
 * reports, and cancel attempts the run stopped. What an outcome does to its task is team/'s.
 */
import {
  ActivityCancellationType,
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  CancelledFailure,
  TimeoutFailure,
  patched,
  proxyActivities,
} from '@temporalio/workflow';
import { TimeoutType } from '@temporalio/common';
import {
  FAILURE_TYPES,
  attemptActivityId,
  leaseIdOf,
  type AttemptEvidence,
  type CompactRunTaskInput,
  type RunTaskInput,
  type HeartbeatDetails,
  type StopActivities,
  type TeamActivities,
} from '../activities/interface';
import { boundForeignOutcome, isForeignActivity } from '../team/foreign-activity';
import { adoptOutcome, adoptWithinMs, type Adoption } from '../team/handover';
import { STOP_ANNOUNCE_AFTER_MS, attemptTimeoutMs, defaultHeartbeatEveryMs } from '../plan/lease-pace';
import type { TeamRun } from '../team/run';
import type { AttemptOutcome, Claim } from '../team/types';
import type { RecentLinks } from './details';
import { runForeignActivity } from './foreign-activity';
import { TEAM_KIND_PATCH, TEAM_ON_LEDGER, isTeamTask } from '../team/child-team';
import { runChildTeam, stopChild, type ChildTeam } from './child-team';
import { sendStops } from './stop-channel';
import { confirmedFailure, confirmedResult, proveCompletions } from './completion';
import { completedOutcome } from '../team/completion';
import { AttemptNotStarted, type RunLedger } from '../ledger/run-ledger';
import type { TaskSpans } from './task-spans';

export class Attempts {
  /** The scope of each task's live attempt, by task key. */
  private readonly scopes = new Map<string, { fencingToken: number; scope: AttemptScope }>();
  /** Scopes of attempts that settled without being cancelled, for the next attempts to run in. */
  private readonly freeScopes = new ScopePool();
  /** Team tasks' attempts in flight (child workflows), by task key. */
  private readonly children = new Map<string, { fencingToken: number; child: ChildTeam }>();

  constructor(
    private readonly run: TeamRun,
    private readonly ledger: RunLedger | null,
    private readonly links: RecentLinks,
    private readonly spans: TaskSpans,
  ) {}

  launch(claim: Claim): void {
    const { run, ledger } = this;
    const compact = patched(COMPACT_ATTEMPTS);
    const { runTask } = proxyActivities<TeamActivities>({
      activityId: claim.activityId,
      heartbeatTimeout: claim.ttlMs,
      startToCloseTimeout: attemptTimeoutMs(claim.executor, claim.ttlMs),
      retry: { maximumAttempts: 1 },
      cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
      ...summaryOf(claim, compact),
    });
    const scope = this.freeScopes.take();
    this.scopes.set(claim.key, { fencingToken: claim.fencingToken, scope });
    // A governed run, or one on a shared ledger, takes what an attempt answers only once its worker confirms it sent
    // it (completion.ts).
    const proving = proveCompletions(run, ledger !== null);
    // Made when the attempt starts: its ledger lease names the block it joined, if any (ledger/blocks.ts).
    const input = () => ({ ...(compact ? compactInput : wholeInput)(claim, run.workflowId, ledger), ...proving });
    // A `team` task's attempt is a child teamRun workflow (child-team.ts): it answers an outcome, as a foreign one.
    const team = isTeamTask(claim) && patched(TEAM_KIND_PATCH);
    const child: ChildTeam = { handle: null, stopped: false };
    if (team) this.children.set(claim.key, { fencingToken: claim.fencingToken, child });
    const foreign = team || isForeignActivity(claim);
    // A child team runs on the ledger itself (its attempts take slots): its team task takes none.
    const slotted = ledger && !(team && patched(TEAM_ON_LEDGER)) ? ledger : null;
    // An `activity` task's attempt goes to its own queue; teamrun's worker never receives it. What it answers is
    // the attempt's result, made an outcome where it settles: a promise less per attempt (each costs the SDK a stack).
    // What answers an outcome itself; a plain runTask answers its result, made a completion where it settles.
    const answersOutcome = foreign || proving.proveCompletion === true;
    const attempt = (): Promise<unknown> =>
      team
        ? runChildTeam(claim, run, child)
        : foreign
          ? runForeignActivity(claim, run.workflowId, longSummary(claim))
          : proving.proveCompletion
            ? runTask(input()).then(
                (result) => confirmedResult(run, claim, result),
                (err: unknown) => confirmedFailure(run, claim, err, outcomeOf(err)),
              )
            : runTask(input());
    // With tracing on, the attempt's activity is scheduled under its task's span (task-spans.ts).
    void this.spans
      .within(claim, () => scope.run(() => (slotted ? slotted.admit(claim, attempt, !foreign) : attempt())))
      .then(
        (answer) => this.settle(claim, answersOutcome ? (answer as AttemptOutcome) : completedOutcome(answer), claim),
        (err: unknown) => this.settle(claim, foreign ? boundForeignOutcome(outcomeOf(err)) : outcomeOf(err), claim),
      );
  }

  /**
   * Re-attaches to an attempt the run's snapshot carried (src/team/handover.ts): its worker runs it
   * on, and `adoptAttempt` on that worker's stop queue answers as its runTask would. Same activity
   * id, lease and cancellation as the attempt's runTask; interrupts and aborts reach it alike.
   */
  adopt(adoption: Adoption): void {
    const { key, attempt } = adoption;
    const { adoptAttempt } = proxyActivities<StopActivities>({
      taskQueue: attempt.stopQueue,
      activityId: attempt.activityId,
      heartbeatTimeout: adoption.ttlMs,
      scheduleToStartTimeout: adoptWithinMs(adoption.ttlMs),
      startToCloseTimeout: attemptTimeoutMs(adoption.executor, adoption.ttlMs),
      retry: { maximumAttempts: 1 },
      cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
      summary:
        `${adoption.title} · attempt ${attempt.attempt} · token ${attempt.fencingToken} · ` +
        `carried from the previous run · ${attempt.holder}`,
    });
    // Not pooled: an adopt starts before the run's loop, under the root scope, which a Temporal cancel cancels.
    const scope = new AttemptScope(false);
    this.scopes.set(key, { fencingToken: attempt.fencingToken, scope });
    // A run on a shared ledger carries no attempt across its continue-as-new: none is adopted.
    const proving = proveCompletions(this.run, false);
    const input = {
      workflowId: this.run.workflowId,
      taskKey: key,
      fencingToken: attempt.fencingToken,
      leaseId: attempt.leaseId,
      heartbeatEveryMs: adoption.heartbeatEveryMs,
      ...proving,
    };
    const carried = { key, fencingToken: attempt.fencingToken };
    const adopted = (): Promise<unknown> =>
      proving.proveCompletion
        ? adoptAttempt(input).then(
            (result) => confirmedResult(this.run, carried, result),
            (err: unknown) => confirmedFailure(this.run, carried, err, adoptOutcome(outcomeOf(err), timedOut(err))),
          )
        : adoptAttempt(input);
    void this.spans
      .within(adoption, () => scope.run(adopted), true)
      .then(
        (answer) =>
          this.settle(carried, proving.proveCompletion ? (answer as AttemptOutcome) : completedOutcome(answer)),
        (err: unknown) => this.settle(carried, adoptOutcome(outcomeOf(err), timedOut(err))),
      );
  }

  /**
   * Cancels the attempts the run stopped; those that announced their worker's stop queue also get a stop there, at
   * once.
   */
  cancelStopped(): void {
    for (const { key, fencingToken, childAbort } of this.run.drainCancellations()) {
      // Looked up when it runs: a scope whose attempt settled meanwhile may hold another attempt by then.
      const cancel = () => {
        const attempt = this.scopes.get(key);
        if (attempt?.fencingToken === fencingToken) attempt.scope.cancel();
      };
      const team = this.children.get(key);
      // A child gets the parent's abort (its code, actor, reason; no adjudication) and ends with its result; it is
      // cancelled only when that abort could not be sent (child-team.ts says why).
      if (team?.fencingToken === fencingToken) void stopChild(team.child, childAbort).then((sent) => sent || cancel());
      else cancel();
    }
    sendStops(this.run.drainStops());
  }

  /** `claim` is absent for an adopted attempt, which never holds a shared-ledger slot. */
  private settle(
    { key, fencingToken }: { key: string; fencingToken: number },
    outcome: AttemptOutcome,
    claim?: Claim,
  ): void {
    this.links.remember(key, outcome);
    if (this.children.get(key)?.fencingToken === fencingToken) this.children.delete(key);
    const live = this.scopes.get(key);
    if (live?.fencingToken === fencingToken) {
      this.scopes.delete(key);
      this.freeScopes.give(live.scope);
    }
    const bound = this.run.settle(key, fencingToken, outcome, Date.now());
    if (claim) this.ledger?.settle(claim, outcome, bound);
  }
}

/** Runs whose history began before compact attempt inputs send the whole input and the long summary (replay). */
const COMPACT_ATTEMPTS = 'teamrun-compact-attempts';

/** What the Web UI shows beside an attempt: its title where it says more than the activity id (`<key>#<token>`). */
function summaryOf(claim: Claim, compact: boolean): { summary?: string } {
  if (!compact) return { summary: longSummary(claim) };
  return claim.title === claim.key ? {} : { summary: claim.title };
}

function longSummary(claim: Claim): string {
  return (
    `${claim.title} · attempt ${claim.attempt} · token ${claim.fencingToken} · ` +
    `${claim.executor.kind} · ${claim.holder}`
  );
}

function wholeInput(claim: Claim, workflowId: string, ledger: RunLedger | null): RunTaskInput {
  return {
    workflowId,
    taskKey: claim.key,
    title: claim.title,
    attempt: claim.attempt,
    fencingToken: claim.fencingToken,
    leaseId: claim.leaseId,
    holder: claim.holder,
    executor: claim.executor,
    dependencyOutputs: claim.dependencyOutputs,
    ...(claim.allowSpawn ? { allowSpawn: true } : {}),
    ...(claim.outputSchema ? { outputSchema: claim.outputSchema } : {}),
    ...(claim.stallAfterMs !== undefined ? { stallAfterMs: claim.stallAfterMs } : {}),
    ...(ledger ? { ledger: ledger.lease(claim) } : {}),
    ...(claim.inbox ? { inbox: claim.inbox } : {}),
    heartbeatEveryMs: claim.heartbeatEveryMs,
    announceAfterMs: STOP_ANNOUNCE_AFTER_MS,
    grant: claim.grant,
  };
}

/** The whole input less what the worker derives (expandRunTaskInput): stored in history once per attempt. */
function compactInput(claim: Claim, workflowId: string, ledger: RunLedger | null): CompactRunTaskInput {
  const named = claim.activityId === attemptActivityId(claim.key, claim.fencingToken);
  return {
    ...(named ? {} : { taskKey: claim.key, fencingToken: claim.fencingToken }),
    ...(claim.attempt === claim.fencingToken ? {} : { attempt: claim.attempt }),
    holder: claim.holder,
    executor: claim.executor,
    ...(claim.leaseId === leaseIdOf(workflowId, claim.key, claim.fencingToken) ? {} : { leaseId: claim.leaseId }),
    ...(claim.title === claim.key ? {} : { title: claim.title }),
    ...(Object.keys(claim.dependencyOutputs).length ? { dependencyOutputs: claim.dependencyOutputs } : {}),
    ...(claim.allowSpawn ? { allowSpawn: true } : {}),
    ...(claim.outputSchema ? { outputSchema: claim.outputSchema } : {}),
    ...(claim.stallAfterMs !== undefined ? { stallAfterMs: claim.stallAfterMs } : {}),
    ...(ledger ? { ledger: ledger.lease(claim) } : {}),
    ...(claim.inbox ? { inbox: claim.inbox } : {}),
    // What the attempt may spend before it asks for more: only when a limit applies (a run with none never asks);
    // a run that counts model calls (`turns`) is asked before each.
    ...(claim.grant && (claim.grant.tokens !== null || claim.grant.usd !== null || claim.grant.turns)
      ? { grant: claim.grant }
      : {}),
    ...(claim.heartbeatEveryMs === defaultHeartbeatEveryMs(claim.ttlMs)
      ? {}
      : { heartbeatEveryMs: claim.heartbeatEveryMs }),
  };
}

/** What the server puts in the details of an activity it cancelled before any worker started it. */
const ACTIVITY_NOT_STARTED = 'ACTIVITY_ID_NOT_STARTED';

function isEvidence(value: unknown): value is AttemptEvidence {
  return typeof value === 'object' && value !== null && typeof (value as AttemptEvidence).workerIdentity === 'string';
}

/** The server timed the activity out (before a worker picked it up, or since its last heartbeat). */
function timedOut(err: unknown): boolean {
  return err instanceof ActivityFailure && err.cause instanceof TimeoutFailure;
}

/** Turns what Temporal reports for an attempt into an outcome the team rules understand. */
export function outcomeOf(err: unknown): AttemptOutcome {
  if (err instanceof AttemptNotStarted) return { kind: 'not-started', reason: err.reason, message: err.message };
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof TimeoutFailure) {
    if (cause.timeoutType === TimeoutType.HEARTBEAT) {
      const details = cause.lastHeartbeatDetails as HeartbeatDetails | undefined;
      return { kind: 'lease-lost', workerIdentity: details?.workerIdentity };
    }
    return { kind: 'failed', message: `attempt timed out (${cause.timeoutType})`, nonRetryable: false };
  }
  if (cause instanceof CancelledFailure) {
    const evidence = cause.details?.[0];
    // Cancelled before its activity was scheduled (a bare CancelledFailure), or while it was still
    // scheduled (the server's details say ACTIVITY_ID_NOT_STARTED): no worker ever started it.
    // Anything else ran, whether or not it left evidence (a foreign activity may leave none).
    if (!(err instanceof ActivityFailure) || evidence === ACTIVITY_NOT_STARTED) {
      return { kind: 'not-started', reason: null, message: 'cancelled before a worker started the attempt' };
    }
    return { kind: 'cancelled', ...(isEvidence(evidence) ? evidence : {}) };
  }
  if (cause instanceof ApplicationFailure) {
    const evidence = cause.details?.[0] as AttemptEvidence | undefined;
    if (cause.type === FAILURE_TYPES.workerShutdown) return { kind: 'released', ...evidence };
    return {
      kind: 'failed',
      message: cause.message,
      errorType: cause.type ?? undefined,
      nonRetryable: cause.nonRetryable === true,
      ...evidence,
    };
  }
  return { kind: 'failed', message: err instanceof Error ? err.message : String(err), nonRetryable: false };
}

/**
 * An attempt's own scope, so that it can be interrupted alone. It has no timeout, so it runs its function as is:
 * the base class wraps it in an async function, two promises more per attempt, and the SDK captures a stack for each
 * promise a workflow makes (docs/benchmarks.md, issue 31's second pass).
 */
class AttemptScope extends CancellationScope {
  /** How many attempts ran in this scope. */
  uses = 0;

  /** `pooled`: made by ScopePool, under the run loop's scope, and given back to it when its attempt settles. */
  constructor(readonly pooled: boolean) {
    super();
  }

  protected override runInContext<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return fn();
    } catch (err) {
      // As the async base would: a throw becomes the attempt's failure, never the workflow task's.
      return Promise.reject(err as Error);
    }
  }
}

/**
 * Scopes to run attempts in, reused. A new scope makes three promises (its cancellation, and two handlers), and
 * the SDK captures and source-maps a stack for every promise a workflow makes: 0.47 of the 1.03 ms an attempt's
 * launch took, sampled (docs/benchmarks.md, issue 31's third pass). A scope whose attempt settled without being
 * cancelled is as good as new: the activity it held is over, and its cancellation handler does nothing once it is.
 * A cancelled one is never reused. Each activity leaves one such handler on its scope, so a scope retires after
 * MAX_USES. Workflow memory only: which scope an attempt runs in issues no command.
 */
class ScopePool {
  private readonly free: AttemptScope[] = [];

  take(): AttemptScope {
    const scope = this.free.pop() ?? new AttemptScope(true);
    scope.uses++;
    return scope;
  }

  give(scope: AttemptScope): void {
    if (scope.pooled && !scope.consideredCancelled && scope.uses < ScopePool.MAX_USES) this.free.push(scope);
  }

  static readonly MAX_USES = 64;
}
