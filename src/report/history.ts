import {
  ApplicationFailure,
  DefaultFailureConverter,
  TimeoutFailure,
  defaultPayloadConverter,
  type Payload,
} from '@temporalio/common';
import { hasPatch, tsToMs, type History } from '../sdk/proto';
import {
  AGENT_STEPS_SIGNAL,
  ATTEMPT_RUNNING_SIGNAL,
  FAILURE_CONFIRMED,
  expandRunTaskInput,
  type AttemptEvidence,
  type AttemptLogs,
  type HeartbeatDetails,
  type RunTaskInput,
  type RunTaskResult,
  type RunTaskWireInput,
} from '../activities/interface';
import { foreignResultOutcome, type ForeignActivityInput } from '../team/foreign-activity';
import type { TeamPlanInput } from '../plan/schema';
import type { RunResult } from '../contract';
import { REPORT_STEPS_MAX, agentStepsOf } from './agent-steps';
import { controlRecord, verdictOf } from './control-records';
import type { ControlRecord } from './model';
import type { AttemptLink, AttemptPrinted, HistoryAttempt, HistoryFacts } from './history-facts';

type HistoryEvent = NonNullable<History['events']>[number];
type ProtoFailure = Parameters<DefaultFailureConverter['failureToError']>[0];

const failures = new DefaultFailureConverter();

function decode<T>(payload: Payload | null | undefined): T | undefined {
  if (!payload) return undefined;
  try {
    return defaultPayloadConverter.fromPayload<T>(payload as Payload);
  } catch {
    return undefined;
  }
}

const first = <T>(payloads: { payloads?: Payload[] | null } | null | undefined): T | undefined =>
  decode<T>(payloads?.payloads?.[0] as Payload | undefined);

function failureOf(failure: ProtoFailure | null | undefined): Error | null {
  return failure ? failures.failureToError(failure, defaultPayloadConverter) : null;
}

/** Decodes the histories of one team run, oldest run first (several when it continued as new). */
/** `workflowId`: the run's, which a compact attempt input leaves out (its lease id names it). */
export function readHistories(histories: History[], workflowId = ''): HistoryFacts {
  const facts: HistoryFacts = {
    plan: null,
    startedAt: 0,
    close: null,
    attempts: [],
    control: [],
    steps: [],
    stepsDropped: 0,
  };
  histories.forEach((history, runIndex) => {
    const scheduled = new Map<string, HistoryAttempt>();
    const updates = new Map<string, ControlRecord>();
    const confirmations = new Map<string, AskedConfirmation>();
    const byToken = new Map<string, HistoryAttempt>();
    const failuresProven = hasPatch(history, FAILURE_CONFIRMED);
    const open = { scheduled, updates, confirmations, byToken, failuresProven };
    for (const event of history.events ?? [])
      readEvent(event, tsToMs(event.eventTime), { runIndex, workflowId }, facts, open);
  });
  return facts;
}

/**
 * An attempt asked to prove what it answered, whose answer carries no proof: not its worker's (the run never asked
 * the worker; it settled the attempt as a lost lease).
 */
function markUnproven(attempt: HistoryAttempt | undefined, answer: { proof?: unknown } | undefined): void {
  if (attempt?.input.proveCompletion && !answer?.proof) attempt.unproven = true;
}

/** A governed run's question to an attempt's worker: did it send this result (`confirmAttemptRequest`, `complete`)? */
type AskedConfirmation = { key?: string; fencingToken?: number; message?: string };

/** What one run of the chain has open while its history is read, by the scheduled event's id. */
interface OpenInRun {
  scheduled: Map<string, HistoryAttempt>;
  updates: Map<string, ControlRecord>;
  confirmations: Map<string, AskedConfirmation>;
  /** The run's latest attempt of each `<key>#<token>`, which a confirmation of its result names. */
  byToken: Map<string, HistoryAttempt>;
  /** The run confirmed failures and cancellations too: one without its worker's proof was not taken. */
  failuresProven: boolean;
}

function readEvent(
  event: HistoryEvent,
  at: number,
  { runIndex, workflowId }: { runIndex: number; workflowId: string },
  facts: HistoryFacts,
  open: OpenInRun,
): void {
  const { scheduled, updates, confirmations, byToken } = open;
  const attemptOf = (id: unknown) => scheduled.get(String(id));
  if (event.workflowExecutionStartedEventAttributes && runIndex === 0) {
    facts.startedAt = at;
    const input = first<TeamPlanInput | { continued: unknown }>(event.workflowExecutionStartedEventAttributes.input);
    if (input && 'tasks' in input) facts.plan = input;
    return;
  }
  const s = event.activityTaskScheduledEventAttributes;
  if (s?.activityType?.name === 'confirmAttemptRequest') {
    const asked = first<AskedConfirmation>(s.input);
    if (asked?.message === 'complete') confirmations.set(String(event.eventId), asked);
    return;
  }
  if (s) {
    const input = attemptInput(first<RunTaskWireInput | ForeignActivityInput>(s.input), s, workflowId);
    if (!input) return;
    const attempt: HistoryAttempt = {
      input,
      runIndex,
      scheduledEventId: Number(event.eventId ?? 0),
      activityId: s.activityId ?? `${input.taskKey}#${input.fencingToken}`,
      summary: decode<string>(event.userMetadata?.summary as Payload | undefined) ?? null,
      scheduledAt: at,
      startedAt: null,
      worker: null,
      cancelRequestedAt: null,
      end: null,
    };
    scheduled.set(String(event.eventId), attempt);
    byToken.set(`${input.taskKey}#${input.fencingToken}`, attempt);
    facts.attempts.push(attempt);
    return;
  }
  if (event.activityTaskStartedEventAttributes) {
    const attempt = attemptOf(event.activityTaskStartedEventAttributes.scheduledEventId);
    // The server writes this event when the attempt closes, stamped with the time it started.
    if (attempt) {
      attempt.startedAt = at;
      attempt.worker = event.activityTaskStartedEventAttributes.identity ?? attempt.worker;
    }
    return;
  }
  if (event.activityTaskCancelRequestedEventAttributes) {
    const attempt = attemptOf(event.activityTaskCancelRequestedEventAttributes.scheduledEventId);
    if (attempt) attempt.cancelRequestedAt = at;
    return;
  }
  const closedId =
    event.activityTaskCompletedEventAttributes?.scheduledEventId ??
    event.activityTaskFailedEventAttributes?.scheduledEventId ??
    event.activityTaskTimedOutEventAttributes?.scheduledEventId ??
    event.activityTaskCanceledEventAttributes?.scheduledEventId;
  const confirmation = closedId == null ? undefined : confirmations.get(String(closedId));
  if (confirmation) {
    const yes = first<unknown>(event.activityTaskCompletedEventAttributes?.result) === true;
    const attempt = byToken.get(`${confirmation.key}#${confirmation.fencingToken}`);
    if (!yes && attempt) attempt.unproven = true;
    return;
  }
  const completed = event.activityTaskCompletedEventAttributes;
  if (completed) {
    const attempt = attemptOf(completed.scheduledEventId);
    if (attempt?.input.executor.kind === 'activity') {
      // A foreign activity's result is its output, or an `{ output, usage }` envelope.
      const outcome = foreignResultOutcome(first<unknown>(completed.result));
      attempt.end = {
        kind: 'completed',
        at,
        usage: ('usage' in outcome ? outcome.usage : null) ?? null,
        worker: completed.identity ?? null,
      };
      return;
    }
    const result = first<RunTaskResult>(completed.result);
    markUnproven(attempt, result);
    if (attempt) {
      attempt.end = {
        kind: 'completed',
        at,
        usage: result?.usage ?? null,
        worker: result?.workerIdentity ?? completed.identity ?? null,
        ...printed(result),
      };
    }
    return;
  }
  const failed = event.activityTaskFailedEventAttributes;
  if (failed) {
    const attempt = attemptOf(failed.scheduledEventId);
    const error = failureOf(failed.failure);
    const evidence =
      error instanceof ApplicationFailure ? (error.details?.[0] as AttemptEvidence | undefined) : undefined;
    if (open.failuresProven) markUnproven(attempt, evidence);
    if (attempt) {
      attempt.end = {
        kind: 'failed',
        at,
        type: error instanceof ApplicationFailure ? (error.type ?? null) : null,
        message: error?.message ?? 'failed',
        usage: evidence?.usage ?? null,
        worker: evidence?.workerIdentity ?? failed.identity ?? null,
        ...printed(evidence),
      };
    }
    return;
  }
  const timedOut = event.activityTaskTimedOutEventAttributes;
  if (timedOut) {
    const attempt = attemptOf(timedOut.scheduledEventId);
    const error = failureOf(timedOut.failure);
    const timeout =
      error instanceof TimeoutFailure ? error : error?.cause instanceof TimeoutFailure ? error.cause : null;
    const heartbeat = timeout?.lastHeartbeatDetails as HeartbeatDetails | undefined;
    if (attempt) {
      attempt.end = {
        kind: 'timed-out',
        at,
        timeoutType: String(timeout?.timeoutType ?? 'UNKNOWN'),
        worker: heartbeat?.workerIdentity ?? attempt.worker,
      };
    }
    return;
  }
  const canceled = event.activityTaskCanceledEventAttributes;
  if (canceled) {
    const attempt = attemptOf(canceled.scheduledEventId);
    const evidence = first<AttemptEvidence>(canceled.details);
    if (open.failuresProven) markUnproven(attempt, evidence);
    if (attempt) {
      attempt.end = {
        kind: 'cancelled',
        at,
        usage: evidence?.usage ?? null,
        worker: evidence?.workerIdentity ?? canceled.identity ?? null,
        ...printed(evidence),
      };
    }
    return;
  }
  const signaled = event.workflowExecutionSignaledEventAttributes;
  // A worker telling the run where its long attempts run (`attemptRunning`) is plumbing, not a control message.
  if (signaled?.signalName === ATTEMPT_RUNNING_SIGNAL) return;
  // An agent's steps are drawn on the timeline, not listed as control.
  if (signaled?.signalName === AGENT_STEPS_SIGNAL) {
    const steps = agentStepsOf(first(signaled.input), at);
    const room = Math.max(0, REPORT_STEPS_MAX - facts.steps.length);
    facts.steps.push(...steps.slice(0, room));
    facts.stepsDropped += Math.max(0, steps.length - room);
    return;
  }
  if (signaled) {
    facts.control.push(
      controlRecord('signal', signaled.signalName ?? '?', first(signaled.input), at, signaled.identity ?? null),
    );
    return;
  }
  const accepted = event.workflowExecutionUpdateAcceptedEventAttributes;
  if (accepted) {
    const request = accepted.acceptedRequest;
    const record = controlRecord(
      'update',
      request?.input?.name ?? '?',
      first(request?.input?.args),
      at,
      request?.meta?.identity ?? null,
    );
    updates.set(String(event.eventId), record);
    facts.control.push(record);
    return;
  }
  const updated = event.workflowExecutionUpdateCompletedEventAttributes;
  if (updated) {
    const record = updates.get(String(updated.acceptedEventId));
    if (record) {
      const failure = failureOf(updated.outcome?.failure);
      record.verdict = failure ? `failed: ${failure.message}` : verdictOf(first(updated.outcome?.success));
    }
    return;
  }
  const cancelRequested = event.workflowExecutionCancelRequestedEventAttributes;
  if (cancelRequested) {
    facts.control.push({
      at,
      via: 'workflow',
      name: 'cancel',
      actor: null,
      identity: cancelRequested.identity ?? null,
      key: null,
      fencingToken: null,
      summary:
        `workflow cancellation requested (= ` + `abortRun)${cancelRequested.cause ? `: ${cancelRequested.cause}` : ''}`,
      verdict: null,
    });
    return;
  }
  const terminated = event.workflowExecutionTerminatedEventAttributes;
  if (terminated) {
    facts.control.push({
      at,
      via: 'workflow',
      name: 'terminate',
      actor: null,
      identity: terminated.identity ?? null,
      key: null,
      fencingToken: null,
      summary: `workflow terminated${terminated.reason ? `: ${terminated.reason}` : ''}`,
      verdict: null,
    });
    facts.close = { kind: 'terminated', at, message: terminated.reason ?? 'terminated' };
    return;
  }
  readClose(event, at, facts);
}

/** The logs and links an attempt's result or evidence carries, checked: history is input like any other. */
function printed(carrier: { logs?: unknown; links?: unknown } | undefined): AttemptPrinted {
  const logs = carrier?.logs as Partial<AttemptLogs> | undefined;
  const ok = logs && typeof logs === 'object' && typeof logs.stdout === 'string' && typeof logs.stderr === 'string';
  // The report renders links as anchors: only plain http(s) URLs, so a history never carries a script into it.
  const safe = (l: unknown): l is AttemptLink =>
    !!l &&
    typeof (l as AttemptLink).url === 'string' &&
    (l as AttemptLink).url.length <= 2_048 &&
    /^https?:\/\/\S+$/i.test((l as AttemptLink).url);
  const links = Array.isArray(carrier?.links)
    ? (carrier.links as unknown[])
        .filter(safe)
        .slice(0, 20)
        .map((l) => ({ url: l.url, ...(typeof l.label === 'string' ? { label: l.label.slice(0, 200) } : {}) }))
    : [];
  return {
    logs: ok
      ? {
          stdout: logs.stdout!,
          stderr: logs.stderr!,
          stdoutBytes: typeof logs.stdoutBytes === 'number' ? logs.stdoutBytes : logs.stdout!.length,
          stderrBytes: typeof logs.stderrBytes === 'number' ? logs.stderrBytes : logs.stderr!.length,
        }
      : null,
    links,
  };
}

function readClose(event: HistoryEvent, at: number, facts: HistoryFacts): void {
  const completed = event.workflowExecutionCompletedEventAttributes;
  if (completed) {
    const result = first<RunResult>(completed.result);
    if (result) facts.close = { kind: 'completed', at, result };
    return;
  }
  if (event.workflowExecutionFailedEventAttributes) {
    const error = failureOf(event.workflowExecutionFailedEventAttributes.failure);
    facts.close = { kind: 'failed', at, message: error?.message ?? 'failed' };
  } else if (event.workflowExecutionCanceledEventAttributes) {
    const result = first<RunResult>(event.workflowExecutionCanceledEventAttributes.details);
    facts.close = { kind: 'cancelled', at, message: 'cancelled', result: result && 'status' in result ? result : null };
  } else if (event.workflowExecutionTimedOutEventAttributes) {
    facts.close = { kind: 'timed-out', at, message: 'workflow timed out' };
  }
}

/**
 * The attempt an activity of the history is, or null for one that is no attempt (a ledger's).
 * An `activity` task's attempt is the foreign activity itself: its argument has no executor,
 * which is told from its type and queue.
 */
function attemptInput(
  input: RunTaskWireInput | ForeignActivityInput | undefined,
  scheduled: NonNullable<HistoryEvent['activityTaskScheduledEventAttributes']>,
  workflowId: string,
): RunTaskInput | null {
  if (!input || typeof input !== 'object') return null;
  if ('executor' in input && input.workflowId === undefined) {
    // A compact runTask input: its activity id names the task and token. The lease's pace is not read here.
    const activity = { workflowId, activityId: scheduled.activityId ?? '' };
    try {
      return expandRunTaskInput(input, activity, { heartbeatEveryMs: 0, announceAfterMs: 0 });
    } catch {
      return null;
    }
  }
  if (scheduled.activityId !== `${input.taskKey}#${input.fencingToken}`) return null;
  if ('executor' in input) return input;
  return {
    ...input,
    title: input.taskKey,
    executor: {
      kind: 'activity',
      activityType: scheduled.activityType?.name ?? '',
      taskQueue: scheduled.taskQueue?.name ?? '',
    },
  };
}
