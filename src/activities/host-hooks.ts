/**
 * Host hooks (`createWorker({ hooks })`): code of the host's own that runs on the worker, in an attempt's context,
 * around the executor: `onLeaseChanged` (an attempt holds a new lease on a task that was leased before) and
 * `beforeTask` (which may refuse the attempt) before the executor starts, `afterTask` with the settlement the
 * attempt is about to report. Each is bounded in time; a hook that throws or overruns is the attempt's failure
 * (`TEAM_TASK_HOOK_FAILED`, `TEAM_TASK_HOOK_TIMEOUT`), a refusal is `TEAM_TASK_HOOK_REFUSED`: never a wedged run.
 */
import { ApplicationFailure, CancelledFailure } from '@temporalio/activity';
import type { Usage } from '../plan/schema';
import type { Executor } from './executors';
import { FAILURE_TYPES, type AttemptIdentity, type RunTaskInput, type RunTaskResult } from './interface';
import type { Redactor } from './redact';

/** Which attempt a hook runs for, on which worker; `signal` aborts when the attempt is stopped or the hook overruns. */
export interface HookAttempt extends AttemptIdentity {
  workerIdentity: string;
  signal: AbortSignal;
}

/** What the attempt is about to report: its output on success, its failure's type and message otherwise. */
export type TaskSettlement =
  | { status: 'succeeded'; output?: unknown; usage?: Usage }
  | { status: 'failed'; type: string; message: string; nonRetryable: boolean }
  | { status: 'cancelled'; message: string };

/** What `beforeTask` returns to refuse the attempt: it fails for good (`TEAM_TASK_HOOK_REFUSED`) with `refuse`. */
export interface TaskRefusal {
  refuse: string;
}

type Awaitable<T> = T | Promise<T>;

export interface WorkerHooks {
  /** Before the executor starts (after `onLeaseChanged`); return `{ refuse }` to fail the attempt non-retryably. */
  beforeTask?(attempt: HookAttempt): Awaitable<void | TaskRefusal | undefined>;
  /** Before the attempt reports its settlement (after any bound, redaction or budget check made it what it is). */
  afterTask?(attempt: HookAttempt & { settlement: TaskSettlement }): Awaitable<void>;
  /** Before anything else of an attempt whose task held a lease before (fencing token above 1). */
  onLeaseChanged?(attempt: HookAttempt & { previousFencingToken: number }): Awaitable<void>;
  /** Bound of each hook run, in ms (default 10 s, at most 10 minutes). */
  timeoutMs?: number;
}

export const HOOK_TIMEOUT_DEFAULT_MS = 10_000;
const HOOK_TIMEOUT_MAX_MS = 600_000;
/** A refusal's or a hook error's message reaches history: bounded. */
const HOOK_MESSAGE_MAX_CHARS = 2_000;

type HookName = 'beforeTask' | 'afterTask' | 'onLeaseChanged';

/** The hooks as given, checked once when the worker is created (a bad bound stops it there, naming the option). */
export function checkedHooks(hooks: WorkerHooks | undefined): WorkerHooks | undefined {
  if (!hooks) return undefined;
  const { timeoutMs } = hooks;
  if (timeoutMs !== undefined && (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > HOOK_TIMEOUT_MAX_MS))
    throw new Error(
      `createWorker: hooks.timeoutMs must be an integer from 1 to ${HOOK_TIMEOUT_MAX_MS}, not ${timeoutMs}`,
    );
  for (const name of ['beforeTask', 'afterTask', 'onLeaseChanged'] as const) {
    if (hooks[name] !== undefined && typeof hooks[name] !== 'function')
      throw new Error(`createWorker: hooks.${name} must be a function`);
  }
  return hooks.beforeTask || hooks.afterTask || hooks.onLeaseChanged ? hooks : undefined;
}

function hookAttempt(input: AttemptIdentity, workerIdentity: string, signal: AbortSignal): HookAttempt {
  const { workflowId, taskKey, attempt, fencingToken, leaseId, holder } = input;
  return { workflowId, taskKey, attempt, fencingToken, leaseId, holder, workerIdentity, signal };
}

/** Runs one hook within its bound; its error or overrun becomes the attempt's failure. */
async function runHook<T>(
  name: HookName,
  hooks: WorkerHooks,
  stop: AbortSignal,
  redactor: Redactor,
  call: (signal: AbortSignal) => Awaitable<T>,
  nonRetryable: boolean,
): Promise<T> {
  const timeoutMs = hooks.timeoutMs ?? HOOK_TIMEOUT_DEFAULT_MS;
  const overrun = new AbortController();
  const signal = AbortSignal.any([stop, overrun.signal]);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      overrun.abort(new Error(`${name} hook timed out`));
      reject(
        ApplicationFailure.create({
          type: FAILURE_TYPES.hookTimeout,
          message: `the worker's ${name} hook did not finish within ${timeoutMs} ms (createWorker hooks.timeoutMs)`,
          nonRetryable,
        }),
      );
    }, timeoutMs);
  });
  try {
    return await Promise.race([Promise.resolve().then(() => call(signal)), timedOut]);
  } catch (err) {
    if (err instanceof ApplicationFailure && err.type === FAILURE_TYPES.hookTimeout) throw err;
    // Stopped while the hook ran: the attempt reports its stop, as an executor's would.
    if (stop.aborted) throw new CancelledFailure(`stopped during the ${name} hook`);
    throw ApplicationFailure.create({
      type: FAILURE_TYPES.hookFailed,
      message: bounded(redactor.text(`the worker's ${name} hook failed: ${(err as Error)?.message ?? String(err)}`)),
      nonRetryable,
    });
  } finally {
    clearTimeout(timer);
  }
}

function bounded(text: string): string {
  return text.length > HOOK_MESSAGE_MAX_CHARS ? `${text.slice(0, HOOK_MESSAGE_MAX_CHARS)}…` : text;
}

/**
 * The executor with `onLeaseChanged` and `beforeTask` run first, inside the attempt (its heartbeats and stops
 * apply). A hook that fails here follows the task's `retry` (nothing of the task ran); a refusal does not.
 */
export function withHostHooks(executor: Executor, hooks: WorkerHooks, workerIdentity: string): Executor {
  return async (spec, ctx) => {
    const input: AttemptIdentity = ctx;
    if (hooks.onLeaseChanged && ctx.fencingToken > 1) {
      const onLeaseChanged = hooks.onLeaseChanged.bind(hooks);
      await runHook(
        'onLeaseChanged',
        hooks,
        ctx.signal,
        ctx.redactor,
        (signal) =>
          onLeaseChanged({ ...hookAttempt(input, workerIdentity, signal), previousFencingToken: ctx.fencingToken - 1 }),
        false,
      );
    }
    if (hooks.beforeTask) {
      const beforeTask = hooks.beforeTask.bind(hooks);
      const answer = await runHook(
        'beforeTask',
        hooks,
        ctx.signal,
        ctx.redactor,
        (signal) => beforeTask(hookAttempt(input, workerIdentity, signal)),
        false,
      );
      if (answer && typeof answer === 'object' && 'refuse' in answer) {
        throw ApplicationFailure.create({
          type: FAILURE_TYPES.hookRefused,
          message: bounded(ctx.redactor.text(String(answer.refuse))) || 'refused by the worker beforeTask hook',
          nonRetryable: true,
        });
      }
    }
    return executor(spec, ctx);
  };
}

/** How `attend` settles an attempt: it computes the report, this runs `afterTask` on it before it goes out. */
export type Settle = (report: () => Promise<RunTaskResult>) => Promise<RunTaskResult>;

/**
 * `afterTask` around the report an attempt is about to make. Its failure or overrun replaces a success or a
 * failure with `TEAM_TASK_HOOK_FAILED` / `TEAM_TASK_HOOK_TIMEOUT`, non-retryable (the executor's work is done:
 * a person decides), the attempt's evidence kept in the details; a stop is reported as a stop whatever it does.
 */
export function afterTaskSettle(
  hooks: WorkerHooks,
  input: RunTaskInput,
  workerIdentity: string,
  stop: AbortSignal,
  redactor: Redactor,
): Settle {
  const afterTask = hooks.afterTask!.bind(hooks);
  const run = (settlement: TaskSettlement) =>
    runHook(
      'afterTask',
      hooks,
      stop,
      redactor,
      (signal) => afterTask({ ...hookAttempt(input, workerIdentity, signal), settlement }),
      true,
    );
  return async (report) => {
    let result: RunTaskResult;
    try {
      result = await report();
    } catch (err) {
      const settlement = settlementOf(err);
      try {
        await run(settlement);
      } catch (hookErr) {
        // A stop stays a stop (a lost lease's report goes nowhere; a released attempt is leased again).
        if (settlement.status === 'failed') throw withDetails(hookErr, err);
      }
      throw err;
    }
    try {
      await run({ status: 'succeeded', output: result.output, ...(result.usage ? { usage: result.usage } : {}) });
    } catch (hookErr) {
      throw withDetails(hookErr, null, result);
    }
    return result;
  };
}

function settlementOf(err: unknown): TaskSettlement {
  if (err instanceof ApplicationFailure && err.type !== FAILURE_TYPES.workerShutdown) {
    return {
      status: 'failed',
      type: err.type ?? 'Error',
      message: err.message,
      nonRetryable: err.nonRetryable === true,
    };
  }
  return { status: 'cancelled', message: (err as Error)?.message ?? String(err) };
}

/** The hook's failure, carrying the evidence the attempt was about to report (so the adjudicator still sees it). */
function withDetails(hookErr: unknown, failure: unknown, result?: RunTaskResult): unknown {
  if (!(hookErr instanceof ApplicationFailure)) return hookErr;
  const details = failure instanceof ApplicationFailure ? failure.details : result ? [result] : undefined;
  return ApplicationFailure.create({
    type: hookErr.type ?? FAILURE_TYPES.hookFailed,
    message: hookErr.message,
    nonRetryable: true,
    ...(details?.length ? { details } : {}),
  });
}
