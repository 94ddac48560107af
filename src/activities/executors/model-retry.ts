/**
 * A model call retried inside its attempt, as the same step (issue 44). A provider's transient
 * error (HTTP 5xx, 429, 408, a connection reset, or refused by a server that answered before) is
 * retried with exponential backoff and jitter, waiting at least what a `Retry-After` asks, under the
 * task's `modelRetry` policy (src/plan/model-retry.ts). The wait ends at once when the attempt is
 * stopped, or hands the attempt back when its worker is shutting down; the attempt heartbeats on
 * its own timer meanwhile. Once the policy is spent the attempt fails with
 * `TEAM_TASK_MODEL_UNAVAILABLE`, which sends its task to adjudication. A permanent error (400, 401,
 * 403, 404, any other 4xx) fails at once, non-retryable.
 */
import type { ModelRetryPolicy } from '../../plan/model-retry';
import { MODEL_UNAVAILABLE_CODE } from '../../team/routing';
import { FAILURE_TYPES } from '../interface';
import { ExecutorError, type ReportedUsage } from './types';

/** What a transient failure was: the status (null for a transport error) and how long the provider asked to wait. */
export interface Transient {
  status: number | null;
  retryAfterMs: number | null;
}

/** A model call's failure worth another try inside the attempt. */
export class TransientModelError extends ExecutorError {
  constructor(
    message: string,
    readonly transient: Transient,
    options: { type: string; usage?: ReportedUsage },
  ) {
    super(message, options);
  }
}

/** HTTP statuses a provider answers when it is down or busy: the call is retried. */
export const transientStatus = (status: number) => status === 429 || status === 408 || status >= 500;

/** What a permanent status means to whoever reads the failure. */
export function permanentHint(status: number): string {
  if (status === 401) return ' (the provider refused the key: check the variable worker.llm.apiKeyEnv names)';
  if (status === 403) return ' (the key may not use this model or endpoint)';
  if (status === 404) return " (no such model or endpoint: check the task's model and worker.llm.baseUrl)";
  if (status === 400) return ' (the provider refused the request as malformed)';
  return '';
}

/** A `Retry-After` header (seconds, or an HTTP date) as milliseconds from `now`; null when absent or unreadable. */
export function retryAfterMs(header: string | null | undefined, now = Date.now()): number | null {
  if (!header) return null;
  const text = header.trim().slice(0, 100);
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1_000);
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** Origins that answered this worker at least once: a refused connection there is an outage, not a wrong URL. */
const answered = new Set<string>();

export function markAnswered(url: string): void {
  if (answered.size < 1_000) answered.add(originOf(url));
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** Network error codes of a connection that broke or was refused (undici wraps them in `cause`). */
const RESET = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ECONNABORTED', 'ETIMEDOUT']);
const REFUSED = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/**
 * A transport error (fetch threw before any answer) as the failure to report: its URL and cause
 * (not a bare "fetch failed"), transient when the connection broke, or was refused by a server that
 * had answered this worker before; a first call refused says which URL, and fails the attempt.
 */
export function transportFailure(label: string, url: string, err: unknown): ExecutorError {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } })?.cause;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  const detail = [(err as Error)?.message, typeof cause?.message === 'string' ? cause.message : undefined]
    .filter((part, i, all) => part && all.indexOf(part) === i)
    .join(': ');
  const message = `${label} ${url}: ${detail || String(err)}`;
  if ((code && RESET.has(code)) || (code && REFUSED.has(code) && answered.has(originOf(url)))) {
    return new TransientModelError(message, { status: null, retryAfterMs: null }, { type: 'TeamLlmUnreachable' });
  }
  const hint = code && REFUSED.has(code) ? ' (is the model server running at worker.llm.baseUrl?)' : '';
  return new ExecutorError(`${message}${hint}`, { type: 'TeamLlmUnreachable' });
}

/**
 * A provider's non-2xx answer as the failure to throw: transient (retried inside the attempt, waiting
 * what Retry-After asks) or permanent with a hint of what to check, before the answer, cut at its end.
 */
export function httpFailure(
  label: string,
  url: string,
  response: { status: number; headers: { get(name: string): string | null } },
  text: string,
  options: { redact: (text: string) => string; usage?: ReportedUsage },
): ExecutorError {
  const { status } = response;
  const { redact, usage } = options;
  const transient = transientStatus(status);
  const message = redact(
    `${label} ${url}: HTTP ${status}${transient ? '' : permanentHint(status)}: ${redact(text).slice(0, 500)}`,
  );
  const type = `TeamLlm${status}`;
  if (!transient) return new ExecutorError(message, { nonRetryable: true, type, ...(usage ? { usage } : {}) });
  const retryAfter = retryAfterMs(response.headers.get('retry-after'));
  return new TransientModelError(message, { status, retryAfterMs: retryAfter }, { type, ...(usage ? { usage } : {}) });
}

export interface RetryWait {
  /** The try that failed (1 for the first call). */
  tries: number;
  status: number | null;
  waitMs: number;
  elapsedMs: number;
}

export interface ModelRetryOptions {
  policy: ModelRetryPolicy;
  /** The attempt's stop: a wait ends at once, with the signal's reason. */
  signal: AbortSignal;
  /** Aborted when the worker begins to shut down: a wait ends by handing the attempt back. */
  stopping?: AbortSignal;
  /** Who the model is, for the failure: the provider's base URL. */
  provider: string;
  /** Called before each wait (the attempt's progress shows it). */
  onWait?: (wait: RetryWait) => void;
  now?: () => number;
  random?: () => number;
}

/** Calls `call` until it answers, fails for good, or the policy is spent (then `TEAM_TASK_MODEL_UNAVAILABLE`). */
export async function withModelRetry<T>(call: () => Promise<T>, options: ModelRetryOptions): Promise<T> {
  const { policy, signal } = options;
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const started = now();
  let interval = policy.initialIntervalMs;
  for (let tries = 1; ; tries++) {
    if (options.stopping?.aborted) throw handBack('before a model call');
    let failure: TransientModelError;
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof TransientModelError) || signal.aborted) throw err;
      failure = err;
    }
    const elapsedMs = now() - started;
    // Equal jitter: half the interval, plus up to as much again at random; never less than the provider asked.
    const backoff = interval / 2 + (random() * interval) / 2;
    const waitMs = Math.round(Math.min(policy.maxIntervalMs, Math.max(backoff, failure.transient.retryAfterMs ?? 0)));
    if (elapsedMs + waitMs > policy.maxElapsedMs)
      throw unavailable(failure, options.provider, tries, elapsedMs, policy);
    options.onWait?.({ tries, status: failure.transient.status, waitMs, elapsedMs });
    await pause(waitMs, signal, options.stopping);
    interval = Math.min(policy.maxIntervalMs, interval * policy.backoffCoefficient);
  }
}

function unavailable(
  last: TransientModelError,
  provider: string,
  tries: number,
  elapsedMs: number,
  policy: ModelRetryPolicy,
): ExecutorError {
  const status = last.transient.status === null ? 'no answer' : `HTTP ${last.transient.status}`;
  return new ExecutorError(
    `${MODEL_UNAVAILABLE_CODE}: the model provider ${provider} did not answer: ${tries} tries over ` +
      `${Math.round(elapsedMs / 1_000)} s (modelRetry.maxElapsedMs ${policy.maxElapsedMs} ms), the last ${status}: ` +
      `${last.message.slice(0, 400)}`,
    { type: MODEL_UNAVAILABLE_CODE, nonRetryable: true, ...(last.usage ? { usage: last.usage } : {}) },
  );
}

/** The failure that hands an attempt back to be leased again (its worker is shutting down), between two steps. */
export function handBack(where: string): ExecutorError {
  return new ExecutorError(`the worker is shutting down: the attempt is handed back ${where}`, {
    type: FAILURE_TYPES.workerShutdown,
  });
}

/** Waits `ms`; a stop rejects with its reason at once, a worker's shutdown with `handBack`. */
function pause(ms: number, signal: AbortSignal, stopping: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onStop);
      stopping?.removeEventListener('abort', onShutdown);
    };
    const onStop = () => (done(), reject(signal.reason));
    const onShutdown = () => (done(), reject(handBack('while it waited to retry a model call')));
    const timer = setTimeout(() => (done(), resolve()), ms);
    if (signal.aborted) return onStop();
    if (stopping?.aborted) return onShutdown();
    signal.addEventListener('abort', onStop, { once: true });
    stopping?.addEventListener('abort', onShutdown, { once: true });
  });
}
