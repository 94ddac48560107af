import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { TeamrunError } from '../../errors';
import { HttpSpecSchema, UsageSchema } from '../../plan/schema';
import { defineExecutor } from './define';
import { HostPolicy, HostRefused } from './http-guard';
import { traceparent } from '../../telemetry/spans';
import { ExecutorError } from './types';

/** 4xx answers mean the request itself is wrong, except these, which may pass on another try. */
const RETRYABLE_4XX = new Set([408, 429]);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Characters of an error body a failure message quotes (after redaction). */
const ERROR_BODY_CHARS = 500;

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * Calls a URL with the attempt's fencing token and an idempotency key, so the receiving
 * service can refuse a stale writer and deduplicate a retried one. The worker decides where a
 * request may go (`worker.http.allowHosts`, checked on the address connected to, redirects
 * included) and how much of an answer it reads (`worker.http.maxBodyBytes`).
 */
export const httpExecutor = defineExecutor(HttpSpecSchema, async (spec, ctx) => {
  const { maxBodyBytes, maxRedirects } = ctx.config.worker.http;
  const policy = new HostPolicy(ctx.config.worker.http);
  const redact = (text: string) => ctx.redactor.text(text);
  let method = spec.method ?? (spec.body === undefined ? 'GET' : 'POST');
  const signal = spec.timeoutMs ? AbortSignal.any([ctx.signal, AbortSignal.timeout(spec.timeoutMs)]) : ctx.signal;
  let headers: Record<string, string> = {
    ...spec.headers,
    'Teamrun-Fencing-Token': String(ctx.fencingToken),
    'Idempotency-Key': `${ctx.workflowId}/${ctx.taskKey}/${ctx.fencingToken}`,
    // With tracing on, the service's spans join the attempt's (W3C trace context).
    ...traceHeader(),
  };
  let body =
    spec.body === undefined ? undefined : typeof spec.body === 'string' ? spec.body : JSON.stringify(spec.body);
  if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
    headers['Content-Type'] = 'application/json';

  let url = new URL(spec.url);
  let answer: Answer;
  for (let redirects = 0; ; redirects++) {
    try {
      answer = await send(url, method, headers, body, signal, policy, maxBodyBytes);
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      if (err instanceof HostRefused) {
        throw new ExecutorError(redact(`${method} ${url.href}: refused: ${err.message}`), {
          nonRetryable: true,
          type: 'TeamHttpHostRefused',
        });
      }
      if (err instanceof BodyTooLarge) {
        throw new ExecutorError(
          redact(
            `${method} ${url.href}: the response body is over ${maxBodyBytes} bytes ` +
              `(worker.http.maxBodyBytes); the worker stopped reading at ${err.read} bytes`,
          ),
          { nonRetryable: true, type: 'TeamHttpBodyTooLarge' },
        );
      }
      const timedOut =
        (err as Error).name === 'TimeoutError' || (signal.aborted && (signal.reason as Error)?.name === 'TimeoutError');
      throw new ExecutorError(
        redact(`${method} ${url.href}: ${timedOut ? `timed out after ${spec.timeoutMs} ms` : (err as Error).message}`),
        {
          type: timedOut ? 'TeamExecutorTimeout' : 'TeamHttpUnreachable',
        },
      );
    }
    const location = answer.headers.location;
    if (!REDIRECTS.has(answer.status) || !location) break;
    if (redirects >= maxRedirects) {
      throw new ExecutorError(
        redact(`${method} ${spec.url}: more than ${maxRedirects} redirects (worker.http.maxRedirects)`),
        {
          nonRetryable: true,
          type: 'TeamHttpTooManyRedirects',
        },
      );
    }
    const next = new URL(location, url);
    if (next.protocol !== 'http:' && next.protocol !== 'https:') {
      throw new ExecutorError(
        redact(`${method} ${url.href}: redirect to ${next.protocol} refused (http and https only)`),
        {
          nonRetryable: true,
          type: 'TeamHttpHostRefused',
        },
      );
    }
    if (answer.status === 303 || ((answer.status === 301 || answer.status === 302) && method !== 'GET')) {
      method = 'GET';
      body = undefined;
      headers = withoutHeaders(headers, ['content-type', 'content-length']);
    }
    // Credentials the plan gave for one origin are not handed to another.
    if (next.origin !== url.origin)
      headers = withoutHeaders(headers, ['authorization', 'cookie', 'proxy-authorization']);
    url = next;
  }

  const text = answer.body.toString('utf8');
  const json = parseJson(text);
  const reported = json && typeof json === 'object' ? (json as { usage?: unknown }).usage : undefined;
  const usage = reported === undefined ? undefined : UsageSchema.safeParse(reported);
  if (usage && !usage.success) {
    // Usage that does not fit the contract cannot be counted: the attempt fails for good, as an activity's does.
    const issue = usage.error.issues[0];
    const where = issue.path.length ? `usage.${issue.path.join('.')}` : 'usage';
    throw new ExecutorError(
      redact(`${method} ${url.href}: the response's usage does not fit the contract: ${where}: ${issue.message}`),
      { nonRetryable: true, type: 'TeamInvalidUsage' },
    );
  }
  const reportedUsage = usage?.data;
  if (reportedUsage) await ctx.budget?.report(reportedUsage);
  const output =
    json && typeof json === 'object' && 'output' in json ? (json as { output: unknown }).output : undefined;
  if (answer.status < 200 || answer.status >= 300) {
    const nonRetryable = answer.status >= 400 && answer.status < 500 && !RETRYABLE_4XX.has(answer.status);
    // Redacted before the cut: a secret the cut would split is already gone.
    const excerpt = redact(text).slice(0, ERROR_BODY_CHARS);
    throw new ExecutorError(redact(`${method} ${url.href}: HTTP ${answer.status}${excerpt ? `: ${excerpt}` : ''}`), {
      nonRetryable,
      type: `TeamHttp${answer.status}`,
      usage: reportedUsage,
    });
  }
  return { output, usage: reportedUsage };
});

class BodyTooLarge extends TeamrunError {
  readonly code = 'TeamHttpBodyTooLarge';
  constructor(readonly read: number) {
    super(`body over the limit after ${read} bytes`);
  }
}

/** One request, no redirect followed; the body is read up to `maxBodyBytes` and no further. */
function send(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  signal: AbortSignal,
  policy: HostPolicy,
  maxBodyBytes: number,
): Promise<Answer> {
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  // A literal address is connected to without a lookup: check it here.
  if (isIP(hostname)) {
    const refusal = policy.refusal(hostname, port, hostname);
    if (refusal) return Promise.reject(new HostRefused(refusal));
  }
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise<Answer>((resolve, reject) => {
    const req = transport.request(
      url,
      {
        method,
        headers: { ...headers, ...(body !== undefined ? { 'Content-Length': String(Buffer.byteLength(body)) } : {}) },
        signal,
        lookup: policy.lookupFor(port),
      },
      (res) => {
        const tooLarge = (read: number) => {
          // Rejected first: destroying the response reports an abort of its own, which must not win.
          reject(new BodyTooLarge(read));
          res.destroy();
        };
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > maxBodyBytes) return tooLarge(0);
        const chunks: Buffer[] = [];
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > maxBodyBytes) return tooLarge(read);
          chunks.push(chunk);
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
        res.on('aborted', () => reject(new Error('the connection closed before the response ended')));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function traceHeader(): Record<string, string> {
  const parent = traceparent();
  return parent ? { traceparent: parent } : {};
}

function withoutHeaders(headers: Record<string, string>, names: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !names.includes(name.toLowerCase())));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
