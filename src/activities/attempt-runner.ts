/**
 * The core of one attempt on a worker: the executor running (a `LiveAttempt`), and an activity
 * attending it (`attend`): heartbeating its lease, passing cancellation on, and turning what the
 * executor ended with into the attempt's result or failure (redacted, priced, bounded). runTask
 * starts an attempt and attends it; when its run continues as new, adoptAttempt attends the same
 * executor for the next run, so both answer alike.
 */
import { mailboxAccess } from './executors/mailbox-access';
import { checkedResult } from './output-check';
import { ApplicationFailure, CancelledFailure, type Context } from '@temporalio/activity';
import type { TeamrunConfig } from '../config/config';
import { ADD_TASKS_LIMITS } from '../plan/requests/add-tasks';
import { ExecutorError, type Executor, type ExecutorContext, type ExecutorResult } from './executors';
import { firstHeartbeatInMs, paceHeartbeats, type Heartbeats } from './heartbeat-pace';
import {
  FAILURE_TYPES,
  MAX_OUTPUT_BYTES,
  MAX_SPAWN_BYTES,
  type AttemptEvidence,
  type HeartbeatDetails,
  type RunTaskInput,
  type RunTaskResult,
} from './interface';
import type { OpenedAttempt } from './gateway/gateway';
import { AttemptBudget, BUDGET_EXCEEDED, budgetExceeded } from './live-budget';
import { LivePublisher } from './live-output';
import { priceUsage } from './pricing';
import type { Redactor } from './redact';
import { STALLED, StallWatch, stallMessage, stalledFailure } from './stall-watch';
import type { ToolboxFactory } from './tools/types';
import type { Settle } from './host-hooks';
import type { WorkerModels } from './executors/model/provider';
import { extended } from '../objects';

/** What an attempt's reports need from its worker. */
export interface Reporting {
  config: TeamrunConfig;
  workerIdentity: string;
  redactor: Redactor;
  /** Aborted once the worker begins to shut down: an executor between steps then hands its attempt back. */
  stopping?: AbortSignal;
  /** Models handed to createWorker({ models }). */
  models?: WorkerModels;
}

type Ended = { ok: true; result: ExecutorResult } | { ok: false; error: unknown };

/** An executor running one attempt, whichever activity (runTask, then adopts) attends it. */
export class LiveAttempt {
  readonly started = Date.now();
  /**
   * What the executor obeys (`signal`): its attendant's cancellation, or a stop delivered on the worker's stop queue.
   * Node makes an AbortController's signal (an EventTarget with a map of its own) when it is first read: an executor
   * that never reads it (noop) leaves it unmade, and `stopped` says whether `stop` was called without it.
   */
  private readonly stopper = new AbortController();
  stopped = false;
  progress: unknown;
  /** Settles (never rejects) when the executor ends. */
  readonly ended: Promise<Ended>;
  /** The attendant's way to send a heartbeat at once (a stop asks the server for the attempt's cancellation). */
  beatNow: () => void = () => undefined;
  /** How the activity attending the attempt now lets go of it; null when none does. */
  private letGo: (() => void) | null = null;
  /** The attempt's live reservation, when its run counts spend and the gateway can reach the run. */
  readonly budget?: AttemptBudget;
  /** The attempt's stall watch, when its task sets `stallAfterMs`: no step for that long stops it. */
  readonly stall?: StallWatch;
  /** The worker's `afterTask` hook around the report, whichever activity makes it (src/activities/host-hooks.ts). */
  settle?: Settle;
  /** `ctx.live`: a model call's partial output, carried by the attempt's heartbeats (one a second at most). */
  readonly output: LivePublisher;

  get signal(): AbortSignal {
    return this.stopper.signal;
  }

  stop(reason: unknown): void {
    this.stopped = true;
    this.stopper.abort(reason);
  }

  constructor(
    readonly input: RunTaskInput,
    executor: Executor,
    /** This attempt's reporting: its redactor knows the attempt's own secret too. */
    readonly reporting: Reporting,
    env: NodeJS.ProcessEnv,
    /** Its gateway registration: it proves the attempt's result to a run that asks (run-task.ts `proven`). */
    readonly gate?: OpenedAttempt,
    tools?: ToolboxFactory,
    /** Records the attempt's steps as run events (agent kinds); absent on a worker without a client. */
    emit?: ExecutorContext['emit'],
  ) {
    // A lazy attempt's executor never hands a process the secret: reading `access` would register it for nothing.
    const attemptGateway = gate && !gate.lazy ? gate.access : undefined;
    if (gate && input.grant) {
      // Refused: the attempt is stopped like an interrupt, here and at once (its run is not asked to cancel it).
      this.budget = new AttemptBudget(input.grant, reporting.config.prices, gate.extend, (refusal) =>
        this.stop(new Error(`${BUDGET_EXCEEDED}: ${refusal.code}: ${refusal.message}`)),
      );
      gate.attachBudget(this.budget);
    }
    if (input.stallAfterMs !== undefined) {
      this.stall = new StallWatch(input.stallAfterMs, (stall) =>
        this.stop(new Error(`${STALLED}: ${stallMessage(stall)}`)),
      );
    }
    const moved = (step: string) => this.stall?.moved(step);
    this.output = new LivePublisher(reporting.redactor, () => this.beatNow());
    const stopper = this.stopper;
    // One shape for every attempt, the optional parts added after it: a literal with spreads inside it builds each
    // property after the first spread one at a time (Node 20: 1.4 KB more allocated per attempt, measured in-process).
    const context: ExecutorContext = {
      get signal() {
        return stopper.signal;
      },
      workflowId: input.workflowId,
      taskKey: input.taskKey,
      attempt: input.attempt,
      fencingToken: input.fencingToken,
      leaseId: input.leaseId,
      holder: input.holder,
      dependencyOutputs: input.dependencyOutputs,
      inbox: input.inbox ?? [],
      allowSpawn: input.allowSpawn === true,
      progress: (details) => {
        this.progress = details;
        this.stall?.progressed();
      },
      moved,
      config: reporting.config,
      env,
      redactor: reporting.redactor,
      live: this.output,
    };
    if (reporting.stopping) context.stopping = reporting.stopping;
    if (input.outputSchema) context.outputSchema = input.outputSchema;
    if (attemptGateway) context.attemptGateway = attemptGateway;
    if (gate) Object.assign(context, mailboxAccess(gate.ask));
    if (tools) context.tools = tools;
    if (reporting.models) context.models = reporting.models;
    if (this.budget) context.budget = this.budget;
    if (emit) context.emit = emit;
    // One async step, not a chain of five promises: the SDK's async context hooks see every promise an attempt makes.
    this.ended = this.settled(() => executor(input.executor, context), input.outputSchema);
  }

  /**
   * How the run `start` begins ends; never rejects. It begins on the next microtask, after the constructor is done, so
   * that an executor throwing at once still settles `ended`.
   */
  private async settled(start: () => Promise<ExecutorResult>, outputSchema?: Record<string, unknown>): Promise<Ended> {
    await Promise.resolve();
    try {
      // Any kind's output is held to the task's outputSchema (an agent has fixed its own before it answers).
      return { ok: true, result: checkedResult(outputSchema, await start()) };
    } catch (error) {
      return { ok: false, error };
    } finally {
      this.stall?.end();
      this.output.end();
    }
  }

  /**
   * A new activity attends the attempt: the one before it (if any) lets go, and `letGo` is called in turn when the
   * next one attaches. `detach` forgets it once the activity is done attending.
   */
  attach(letGo: () => void): { detach(): void } {
    this.letGo?.();
    this.letGo = letGo;
    return {
      detach: () => {
        if (this.letGo === letGo) this.letGo = null;
      },
    };
  }
}

/** How `attend` ended when its activity let go of the attempt instead of reporting it. */
export const DETACHED = Symbol('detached');

/**
 * Attends `live` for the activity of `ctx` until the executor ends (then reports it as runTask's
 * result or failure), or until the activity lets go: a later adopt attached, or the activity's run
 * is gone (`notFound`) while `handedOver()` says the next run will adopt the attempt. Anything
 * else that cancels the activity stops the executor, as before.
 */
export async function attend(
  ctx: Context,
  live: LiveAttempt,
  heartbeatEveryMs: number,
  handedOver: () => boolean,
): Promise<RunTaskResult | typeof DETACHED> {
  const { reporting } = live;
  const { redactor, workerIdentity } = reporting;
  const beat = () =>
    ctx.heartbeat({
      workerIdentity,
      fencingToken: live.input.fencingToken,
      elapsedMs: Date.now() - live.started,
      progress: redactor.deep(live.progress),
      ...(live.output.view() ? { live: live.output.view() } : {}),
    } satisfies HeartbeatDetails);
  const firstInMs = firstHeartbeatInMs(heartbeatEveryMs, ctx.info.currentAttemptScheduledTimestampMs, Date.now());
  const heartbeats = paceHeartbeats(beat, heartbeatEveryMs, firstInMs);
  live.beatNow = () => heartbeats.now();
  let letGo: () => void = () => undefined;
  const detached = new Promise<typeof DETACHED>((resolve) => (letGo = () => resolve(DETACHED)));
  const cancelled = () => {
    if (ctx.cancellationDetails?.notFound && handedOver()) letGo();
    else live.stop(ctx.cancellationSignal.reason);
  };
  ctx.cancellationSignal.addEventListener('abort', cancelled, { once: true });
  const attached = live.attach(letGo);
  try {
    const ended = await Promise.race([live.ended, detached]);
    if (ended === DETACHED) return DETACHED;
    const report = () => settlement(ctx, live, ended, heartbeats);
    return await (live.settle ? live.settle(report) : report());
  } finally {
    heartbeats.stop();
    ctx.cancellationSignal.removeEventListener('abort', cancelled);
    attached.detach();
  }
}

/** What the attempt reports for how its executor `ended`: its result, or the failure it throws. */
async function settlement(
  ctx: Context,
  live: LiveAttempt,
  ended: Ended,
  heartbeats: Heartbeats,
): Promise<RunTaskResult> {
  const { reporting } = live;
  const { redactor, workerIdentity } = reporting;
  // What the attempt reports besides its executor's result: a success, and a failure's evidence with its worker.
  const marks = live.budget?.usageUnknown ? { usageUnknown: true as const } : {};
  const reportedOf = (reported: ExecutorResult, withOutput = true) =>
    extended(reportable(reported, redactor, reporting.config.prices, withOutput), marks);
  const evidence = (reported: ExecutorResult = {}, withOutput = true): AttemptEvidence =>
    extended(reportedOf(reported, withOutput), { workerIdentity });
  // Refused more budget: stopped on the worker, and a failure for good whatever the executor returned.
  if (live.budget?.refusal)
    throw budgetExceeded(live.budget, evidence(ended.ok ? ended.result : asReported(ended.error)));
  // No step for its stallAfterMs: stopped on the worker like an interrupt, and adjudicated whatever it returned.
  if (live.stall?.stalled)
    throw stalledFailure(live.stall.stalled, redactor, evidence(ended.ok ? ended.result : asReported(ended.error)));
  if (!ended.ok) {
    const err = ended.error;
    if (live.stopped) throw await stopped(ctx, evidence(err instanceof ExecutorError ? err : {}), heartbeats);
    throw failureOf(err, live.input, redactor, evidence);
  }
  // A result that races a cancellation is evidence for a human, never a success.
  if (live.stopped) throw await stopped(ctx, evidence(ended.result), heartbeats);
  // A success names no worker: history records the one that completed the activity (ActivityTaskStarted, Completed),
  // and the run keeps an attempt's worker only as evidence of a lease it lost or released, which a failure's or a
  // cancellation's details carry. 20-odd bytes of every attempt's history.
  return bounded(ended.result, reportedOf(ended.result), () => evidence(ended.result, false), redactor);
}

function asReported(err: unknown): ExecutorResult {
  return err instanceof ExecutorError ? err : {};
}

/** The attempt's result within its bounds (output size, tasks it asks to add), or the failure that says which. */
function bounded(
  result: ExecutorResult,
  reported: RunTaskResult,
  withoutOutput: () => AttemptEvidence,
  redactor: Redactor,
): RunTaskResult {
  const size = reported.output === undefined ? 0 : Buffer.byteLength(JSON.stringify(reported.output));
  if (size > MAX_OUTPUT_BYTES) {
    throw ApplicationFailure.create({
      type: FAILURE_TYPES.outputTooLarge,
      message:
        `task output is ${size} bytes, over the ${MAX_OUTPUT_BYTES}-byte bound (outputs travel ` +
        `through history to dependents; store large results elsewhere and output a reference)`,
      nonRetryable: true,
      details: [withoutOutput()],
    });
  }
  if (!result.tasks?.length) return reported;
  const spawnSize = Buffer.byteLength(JSON.stringify(result.tasks));
  if (spawnSize > MAX_SPAWN_BYTES || result.tasks.length > ADD_TASKS_LIMITS.maxTasks) {
    throw ApplicationFailure.create({
      type: FAILURE_TYPES.outputTooLarge,
      message:
        `the attempt asked to add ${result.tasks.length} task(s) in ${spawnSize} ` +
        `bytes, over the bound (${ADD_TASKS_LIMITS.maxTasks} tasks, ${MAX_SPAWN_BYTES} ` +
        `bytes); add them in several requests with teamrun add-tasks`,
      nonRetryable: true,
      details: [withoutOutput()],
    });
  }
  // Redacted like everything else an attempt reports: a command it prints may hold a secret it read.
  return extended(reported, { tasks: redactor.deep(result.tasks) });
}

/** What an executor threw, as the attempt's failure (redacted; its evidence in the details). */
function failureOf(
  err: unknown,
  input: RunTaskInput,
  redactor: Redactor,
  evidence: (reported?: ExecutorResult) => AttemptEvidence,
): Error {
  if (err instanceof ApplicationFailure || err instanceof CancelledFailure) return err;
  if (err instanceof ExecutorError) {
    return ApplicationFailure.create({
      type: err.type,
      message: redactor.text(err.message),
      nonRetryable: err.nonRetryable,
      details: [evidence(err)],
    });
  }
  return ApplicationFailure.create({
    type: FAILURE_TYPES.executorCrashed,
    message: redactor.text(`executor "${input.executor.kind}" threw: ${(err as Error)?.message ?? String(err)}`),
    details: [evidence()],
  });
}

/** What an attempt reports, priced (each usage record on its own) and redacted; absent fields left out. */
function reportable(
  reported: ExecutorResult,
  redactor: Redactor,
  prices: TeamrunConfig['prices'],
  withOutput: boolean,
): Omit<AttemptEvidence, 'workerIdentity'> {
  const usage = priceUsage(redactor.deep(reported.usage), prices);
  return {
    ...(withOutput && reported.output !== undefined ? { output: redactor.deep(reported.output) } : {}),
    ...(usage ? { usage } : {}),
    ...(reported.logs ? { logs: redactor.deep(reported.logs) } : {}),
    ...(reported.links?.length ? { links: redactor.deep(reported.links) } : {}),
    ...(reported.messages?.length ? { messages: redactor.deep(reported.messages) } : {}),
  };
}

/** How long a locally stopped attempt waits for the server to confirm its cancellation before it gives up waiting. */
const CANCEL_CONFIRM_MS = 10_000;

/**
 * The attempt was stopped from outside. A worker shutting down hands it back to be re-leased;
 * anything else (the workflow cancelled it, the server timed it out) is a cancellation. A stop
 * that came on the stop queue has already killed the executor; the attempt then reports as
 * cancelled once the heartbeat it sent brings the cancellation the run requested with the stop.
 */
async function stopped(ctx: Context, evidence: AttemptEvidence, heartbeats: Heartbeats): Promise<Error> {
  if (!ctx.cancellationSignal.aborted) {
    const deadline = Date.now() + CANCEL_CONFIRM_MS;
    while (!ctx.cancellationSignal.aborted && Date.now() < deadline) {
      heartbeats.now();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 500);
        ctx.cancellationSignal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
      });
    }
  }
  const why = ctx.cancellationDetails;
  // Logged (with the activity id, `<key>#<token>`) because nobody
  // else hears a lost attempt: the server refuses what it reports.
  ctx.log.warn(
    why?.workerShutdown
      ? 'attempt released: the worker is shutting down, the task will be leased again'
      : why?.notFound || why?.timedOut
        ? 'attempt lost its lease: the server no longer has it ' +
          '(heartbeats stopped past the TTL); its result is discarded'
        : 'attempt cancelled by its run',
  );
  if (why?.workerShutdown) {
    return ApplicationFailure.create({
      type: FAILURE_TYPES.workerShutdown,
      message: `worker ${evidence.workerIdentity} is shutting down; the attempt is released`,
      details: [evidence],
    });
  }
  return new CancelledFailure('attempt cancelled', [evidence]);
}
