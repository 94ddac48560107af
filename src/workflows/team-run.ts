import {
  ActivityCancellationType,
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  CancelledFailure,
  TimeoutFailure,
  allHandlersFinished,
  condition,
  continueAsNew,
  patched,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  sleep,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import { TimeoutType } from '@temporalio/common';
import type { RunResult } from '../contract';
import { FAILURE_TYPES, type AttemptEvidence, type HeartbeatDetails, type TeamActivities } from '../activities/interface';
import { CONTINUE_AS_NEW_HISTORY_BYTES, type ExecutorSpec, type TeamPlanInput } from '../plan/schema';
import type { IdleHookRequest } from '../team/members';
import { formatProblems, validatePlan } from '../plan/validate';
import { TeamControlError } from '../team/control';
import { TeamRun, type TeamRunSnapshot } from '../team/run';
import { packSnapshot, unpackSnapshot, type PackedSnapshot } from '../team/snapshot';
import type { AttemptOutcome, Claim } from '../team/types';
import { boundForeignOutcome, isForeignActivity } from '../team/foreign-activity';
import { closeAsCanceled } from './cancel';
import { RecentLinks, currentDetails } from './details';
import { runForeignActivity } from './foreign-activity';
import { withIsoTimes as iso } from './iso-times';
import * as msg from './messages';
import * as sa from './search-attributes';
import { AttemptNotStarted, RunLedger } from './team-ledger';
import { STOP_ANNOUNCE_AFTER_MS } from '../team/lease-pace';
import { handOverDue, handOverDueBefore17 } from '../team/handover';
import { attemptRunningSignal, sendStops } from './stop-channel';

/** What `teamRun` takes: a plan, or (from continue-as-new) the snapshot of the run so far. */
export type TeamRunInput = TeamPlanInput | { continued: PackedSnapshot | TeamRunSnapshot };

export async function teamRun(input: TeamRunInput): Promise<RunResult> {
  const run = begin(input);
  const ledger = run.ledgerId === null ? null : new RunLedger(run.ledgerId, run.workflowId, run.status(Date.now()).name);
  const attempts = new Map<string, { fencingToken: number; scope: CancellationScope }>();
  let published = '';
  // Links the latest attempts printed, for the current details only: never in the run's state.
  const links = new RecentLinks();

  const publish = () => {
    const state = run.state();
    const budget = run.budgetView(Date.now());
    const key = `${state}|${run.pendingAdjudications}|${budget.stopped}`;
    setCurrentDetails(currentDetails(run, Date.now(), links.recent));
    if (key === published) return;
    published = key;
    upsertSearchAttributes([
      { key: sa.TeamName, value: run.status(Date.now()).name },
      { key: sa.TeamRunStatus, value: sa.statusKeyword(state) },
      { key: sa.TeamRunPendingAdjudications, value: run.pendingAdjudications },
      { key: sa.TeamRunBudgetStopped, value: budget.stopped },
    ]);
  };

  const settle = (claim: Claim, outcome: AttemptOutcome) => {
    links.remember(claim.key, outcome);
    if (attempts.get(claim.key)?.fencingToken === claim.fencingToken) attempts.delete(claim.key);
    run.settle(claim.key, claim.fencingToken, outcome, Date.now());
    ledger?.settle(claim, outcome);
  };

  const launch = (claim: Claim) => {
    const summary = `${claim.title} · attempt ${claim.attempt} · token ${claim.fencingToken} · ${claim.executor.kind} · ${claim.holder}`;
    const { runTask } = proxyActivities<TeamActivities>({
      activityId: claim.activityId,
      heartbeatTimeout: claim.ttlMs,
      startToCloseTimeout: attemptTimeoutMs(claim),
      retry: { maximumAttempts: 1 },
      cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
      summary,
    });
    const scope = new CancellationScope();
    attempts.set(claim.key, { fencingToken: claim.fencingToken, scope });
    const input = {
      workflowId: run.workflowId,
      taskKey: claim.key,
      title: claim.title,
      attempt: claim.attempt,
      fencingToken: claim.fencingToken,
      leaseId: claim.leaseId,
      holder: claim.holder,
      executor: claim.executor,
      dependencyOutputs: claim.dependencyOutputs,
      ...(claim.allowSpawn ? { allowSpawn: true } : {}),
      ...(ledger ? { ledger: ledger.lease(claim) } : {}),
      ...(claim.inbox ? { inbox: claim.inbox } : {}),
      heartbeatEveryMs: claim.heartbeatEveryMs,
      announceAfterMs: STOP_ANNOUNCE_AFTER_MS,
    };
    // An `activity` task's attempt goes to its own queue; teamrun's worker never receives it.
    const foreign = isForeignActivity(claim);
    const attempt = (): Promise<AttemptOutcome> =>
      foreign
        ? runForeignActivity(claim, run.workflowId, summary)
        : runTask(input).then((result): AttemptOutcome => ({ kind: 'completed', ...result }));
    scope.run(() => (ledger ? ledger.admit(claim, attempt) : attempt())).then(
      (outcome) => settle(claim, outcome),
      (err: unknown) => settle(claim, foreign ? boundForeignOutcome(outcomeOf(err)) : outcomeOf(err)),
    );
  };

  // Idle hooks run as activities of their own; the run waits for them before it closes or hands over.
  const hooks = new Set<Promise<void>>();
  const startHooks = () => {
    for (const hook of run.drainIdleHooks()) {
      const done = runIdleHook(run.workflowId, hook).then(
        () => run.hookEnded(hook, { ok: true }, Date.now()),
        (err: unknown) => run.hookEnded(hook, { ok: false, error: err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err) }, Date.now()),
      );
      hooks.add(done);
      void done.finally(() => hooks.delete(done));
    }
  };

  registerHandlers(run);
  // Temporal's own cancellation (`temporal workflow cancel`, the UI's button) is a coordinator abort.
  CancellationScope.current().cancelRequested.catch(() => run.cancelRequested(Date.now()));

  return CancellationScope.nonCancellable(async () => {
    await ledger?.register();
    const deadline = run.wallDeadline();
    if (deadline !== null) {
      sleep(Math.max(1, deadline - Date.now())).then(() => run.wallExpired(Date.now()));
    }
    let handingOver = false;
    const cancelStopped = () => {
      for (const { key, fencingToken } of run.drainCancellations()) {
        const attempt = attempts.get(key);
        if (attempt?.fencingToken === fencingToken) attempt.scope.cancel();
      }
      // Attempts that announced their worker's stop queue also get a stop there, at once.
      sendStops(run.drainStops());
    };
    for (;;) {
      const now = Date.now();
      cancelStopped();
      // A cancelled run closes as Canceled here, with its result: it never hands over.
      if (run.cancelling) handingOver = false;
      else if (!handingOver && shouldContinueAsNew(run.continueAsNewAfterEvents)) {
        // From here nothing new starts: in-flight attempts settle in this run, then it hands over.
        handingOver = true;
        const { historyLength, historySize } = workflowInfo();
        run.record('run:continuing-as-new', now, { historyLength, historySize, active: run.activeCount });
      }
      run.expireApprovals(now);
      if (!handingOver) run.claim(now).forEach(launch);
      startHooks();
      // A claim past the wall deadline stops the run before the timer fires: cancel at once.
      cancelStopped();
      publish();
      const phase = run.phase();
      if (phase === 'done') break;
      if (handingOver && run.activeCount === 0) {
        // Updates and signals already delivered have run; the snapshot is taken in this same
        // workflow task, and one that reaches the server meanwhile makes it refuse the
        // continue-as-new (UnhandledCommand) and replay this task with it included. Updates it
        // has not delivered yet go to the next run.
        await ledger?.drain();
        await Promise.all([...hooks]);
        await condition(allHandlersFinished);
        run.record('run:continued-as-new', Date.now(), { historyLength: workflowInfo().historyLength });
        return continueAsNew<typeof teamRun>({ continued: packSnapshot(run.snapshot()) });
      }
      const seen = run.version;
      const adjudicationDeadline = run.adjudicationDeadline(now);
      if (adjudicationDeadline !== null) {
        const timeout = Math.min(adjudicationDeadline, run.approvalDeadline() ?? Infinity) - now;
        const moved = timeout > 0 && (await condition(() => run.version !== seen, timeout));
        if (!moved && adjudicationDeadline <= Date.now()) run.closeUnresolved(Date.now());
        continue;
      }
      const wake = earliest(run.nextWakeAt(now), run.approvalDeadline());
      if (wake !== null && wake > now && !handingOver) {
        await condition(() => run.version !== seen, wake - now);
      } else {
        await condition(() => run.version !== seen);
      }
    }
    await ledger?.unregister();
    const result = run.finish(Date.now());
    startHooks();
    await Promise.all([...hooks]);
    await condition(allHandlersFinished);
    publish();
    if (run.cancelling) return closeAsCanceled(result);
    return result;
  });
}

function begin(input: TeamRunInput): TeamRun {
  if (input && typeof input === 'object' && 'continued' in input) return new TeamRun(unpackSnapshot(input.continued));
  const validation = validatePlan(input);
  if (!validation.ok) {
    throw ApplicationFailure.create({
      type: FAILURE_TYPES.invalidPlan,
      message: `invalid team plan:\n${formatProblems(validation.problems)}`,
      nonRetryable: true,
      details: [validation.problems],
    });
  }
  return TeamRun.start(validation.plan, workflowInfo().workflowId, Date.now());
}

function earliest(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : Math.min(a, b);
}

/** One `hooks.teammateIdle` run: the `runTask` activity with the member record as its input, bounded in time. */
async function runIdleHook(workflowId: string, hook: IdleHookRequest & { executor: ExecutorSpec }): Promise<void> {
  const { runTask } = proxyActivities<TeamActivities>({
    activityId: `hook:teammateIdle:${hook.member.holder}#${hook.seq}`,
    startToCloseTimeout: ((hook.executor as { timeoutMs?: number }).timeoutMs ?? 600_000) + 60_000,
    retry: { maximumAttempts: 1 },
    summary: `teammateIdle hook · ${hook.member.holder}`,
  });
  await runTask({
    workflowId,
    taskKey: `hook:teammateIdle:${hook.member.holder}`,
    title: `teammateIdle hook for ${hook.member.holder}`,
    attempt: hook.seq,
    fencingToken: hook.seq,
    leaseId: `${workflowId}/hook:teammateIdle/${hook.seq}`,
    holder: hook.member.holder,
    executor: hook.executor,
    dependencyOutputs: { member: hook.member },
  });
}

function shouldContinueAsNew(afterEvents: number): boolean {
  const info = workflowInfo();
  // Runs whose history began before issue 17 keep following every suggestion (replay stays deterministic).
  const due = info.continueAsNewSuggested && !patched(HANDOVER_ON_SIZE_ONLY) ? handOverDueBefore17 : handOverDue;
  return due(info, afterEvents, CONTINUE_AS_NEW_HISTORY_BYTES);
}

const HANDOVER_ON_SIZE_ONLY = 'teamrun-handover-on-size-only';

function attemptTimeoutMs(claim: Claim): number {
  const timeoutMs = (claim.executor as { timeoutMs?: unknown }).timeoutMs;
  // The executor enforces its own timeout; this one only bounds an attempt that ignores it.
  return typeof timeoutMs === 'number' ? timeoutMs + claim.ttlMs + 60_000 : 30 * 24 * 3600_000;
}

function registerHandlers(run: TeamRun): void {
  const now = () => Date.now();
  // A TeamControlError must reach the client as the update's failure, never fail the workflow task.
  const asFailure = <T>(check: () => T): T => {
    try {
      return check();
    } catch (err) {
      // The code leads the message too: the Web UI shows an update's failure message, not its type.
      if (err instanceof TeamControlError) throw ApplicationFailure.nonRetryable(`${err.code}: ${err.message}`, err.code);
      throw err;
    }
  };
  setHandler(attemptRunningSignal, (announcement) => {
    run.attemptsRunning(announcement);
  });
  setHandler(msg.statusQuery, () => iso(run.status(now())), { description: 'Progress, budget and pending adjudications' });
  setHandler(msg.tasksQuery, (query) => iso(run.tasksPage(query ?? {})), {
    description: 'Tasks, paged: { status?, offset?, limit? } (default limit 1000, at most 2000)',
  });
  setHandler(msg.activeClaimsQuery, () => iso(run.activeClaims()), {
    description: 'Attempts holding a lease now, with the fencing token to interrupt them',
  });
  setHandler(msg.adjudicationsQuery, () => iso(run.adjudicationsView()), {
    description: 'Adjudication records, pending (decision null) and decided',
  });
  setHandler(msg.budgetQuery, () => run.budgetView(now()), { description: 'Limits, used, reserved and remaining budget' });
  setHandler(msg.eventsQuery, (query) => iso(run.eventsView(query ?? {})), {
    description: 'Run events after a sequence number: { after?, limit? }',
  });
  setHandler(msg.membersQuery, () => run.membersView(), {
    description: 'One row per teammate slot: { holder, state: idle|running|shutdown, currentTask, completed, failed, lastError, since }',
  });
  setHandler(msg.messagesQuery, (query) => run.messagesView(query ?? {}), {
    description: 'Mailbox messages held: { to?, after?, limit? } (at most 100); nextId continues',
  });
  setHandler(msg.sendMessageUpdate, (request) => asFailure(() => run.sendMessage(request, now())), {
    validator: (request) => {
      asFailure(() => run.validateSendMessage(request));
    },
    description:
      'Send a mailbox message: { from, to: task key | teammate-<n> | coordinator | "*", subject?, body, fencingToken? (a task sending), actor? }',
  });
  setHandler(msg.readInboxUpdate, (request) => asFailure(() => run.readInbox(request, now())), {
    validator: (request) => {
      asFailure(() => run.validateReadInbox(request));
    },
    description: "Read a running task's inbox: { key, fencingToken, peek? } (advances its cursor unless peek)",
  });
  setHandler(
    msg.interruptTaskSignal,
    (request) => {
      run.interrupt(request, now());
    },
    { description: 'Take over a running task: { key, fencingToken, requestId?, actor?, reason?, evidenceDigest? }' },
  );
  setHandler(
    msg.abortRunSignal,
    (request) => {
      run.abort(request, now());
    },
    { description: 'Abort the run: { reason?, requestId?, actor?, requireAdjudication? }' },
  );
  setHandler(msg.interruptTaskUpdate, (request) => run.interrupt(request, now()), {
    validator: (request) => asFailure(() => run.validateInterrupt(request)),
    description: 'Take over a running task and get the verdict: { key, fencingToken, requestId?, actor?, reason? }',
  });
  setHandler(msg.abortRunUpdate, (request?) => run.abort(request, now()), {
    validator: (request?) => asFailure(() => run.validateAbort(request)),
    description: 'Abort the run and get the number of attempts stopped: { reason?, requestId?, actor? }',
  });
  setHandler(msg.adjudicateUpdate, (request) => asFailure(() => run.adjudicate(request, now())), {
    validator: (request) => {
      asFailure(() => run.validateAdjudicate(request));
    },
    description: 'Decide a task awaiting adjudication: { key, decision: retry|accept|reject, decisionId, actor?, result? }',
  });
  setHandler(msg.addTasksUpdate, (request) => asFailure(() => run.addTasks(request, now())), {
    validator: (request) => {
      asFailure(() => run.validateAddTasks(request));
    },
    description: 'Add tasks to the running graph: { tasks: [TaskSpec...], parent?, fencingToken?, requestId, actor? }',
  });
}

/** What the server puts in the details of an activity it cancelled before any worker started it. */
const ACTIVITY_NOT_STARTED = 'ACTIVITY_ID_NOT_STARTED';

function isEvidence(value: unknown): value is AttemptEvidence {
  return typeof value === 'object' && value !== null && typeof (value as AttemptEvidence).workerIdentity === 'string';
}

/** Turns what Temporal reports for an attempt into an outcome the team rules understand. */
function outcomeOf(err: unknown): AttemptOutcome {
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
