import { UsageSchema } from '../../plan/schema';
import { ExecutorError, type Executor } from './types';

interface HttpSpec {
  kind: 'http';
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
  timeoutMs?: number;
}

/** 4xx answers mean the request itself is wrong, except these, which may pass on another try. */
const RETRYABLE_4XX = new Set([408, 429]);

/**
 * Calls a URL with the attempt's fencing token and an idempotency key, so the receiving
 * service can refuse a stale writer and deduplicate a retried one.
 */
export const httpExecutor: Executor = async (raw, ctx) => {
  const spec = raw as unknown as HttpSpec;
  const method = spec.method ?? (spec.body === undefined ? 'GET' : 'POST');
  const signal = spec.timeoutMs ? AbortSignal.any([ctx.signal, AbortSignal.timeout(spec.timeoutMs)]) : ctx.signal;
  const headers: Record<string, string> = {
    ...spec.headers,
    'Teamrun-Fencing-Token': String(ctx.fencingToken),
    'Idempotency-Key': `${ctx.workflowId}/${ctx.taskKey}/${ctx.fencingToken}`,
  };
  if (spec.body !== undefined) headers['Content-Type'] ??= 'application/json';
  let response: Response;
  try {
    response = await fetch(spec.url, {
      method,
      headers,
      body: spec.body === undefined ? undefined : typeof spec.body === 'string' ? spec.body : JSON.stringify(spec.body),
      signal,
    });
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    const timedOut = (err as Error).name === 'TimeoutError';
    throw new ExecutorError(`${method} ${spec.url}: ${timedOut ? `timed out after ${spec.timeoutMs} ms` : (err as Error).message}`, {
      type: timedOut ? 'TeamExecutorTimeout' : 'TeamHttpUnreachable',
    });
  }
  const text = await response.text();
  const json = parseJson(text);
  const usage = json && typeof json === 'object' ? UsageSchema.safeParse((json as { usage?: unknown }).usage) : undefined;
  const reportedUsage = usage?.success ? usage.data : undefined;
  const output = json && typeof json === 'object' && 'output' in json ? (json as { output: unknown }).output : undefined;
  if (!response.ok) {
    const nonRetryable = response.status >= 400 && response.status < 500 && !RETRYABLE_4XX.has(response.status);
    throw new ExecutorError(`${method} ${spec.url}: HTTP ${response.status}${text ? `: ${text.slice(0, 500)}` : ''}`, {
      nonRetryable,
      type: `TeamHttp${response.status}`,
      usage: reportedUsage,
    });
  }
  return { output, usage: reportedUsage };
};

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
