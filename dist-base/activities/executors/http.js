"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.httpExecutor = void 0;
const node_http_1 = __importDefault(require("node:http"));
const node_https_1 = __importDefault(require("node:https"));
const node_net_1 = require("node:net");
const errors_1 = require("../../errors");
const schema_1 = require("../../plan/schema");
const define_1 = require("./define");
const http_guard_1 = require("./http-guard");
const spans_1 = require("../../telemetry/spans");
const types_1 = require("./types");
/** 4xx answers mean the request itself is wrong, except these, which may pass on another try. */
const RETRYABLE_4XX = new Set([408, 429]);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Characters of an error body a failure message quotes (after redaction). */
const ERROR_BODY_CHARS = 500;
/**
 * Calls a URL with the attempt's fencing token and an idempotency key, so the receiving
 * service can refuse a stale writer and deduplicate a retried one. The worker decides where a
 * request may go (`worker.http.allowHosts`, checked on the address connected to, redirects
 * included) and how much of an answer it reads (`worker.http.maxBodyBytes`).
 */
exports.httpExecutor = (0, define_1.defineExecutor)(schema_1.HttpSpecSchema, async (spec, ctx) => {
    const { maxBodyBytes, maxRedirects } = ctx.config.worker.http;
    const policy = new http_guard_1.HostPolicy(ctx.config.worker.http);
    const redact = (text) => ctx.redactor.text(text);
    let method = spec.method ?? (spec.body === undefined ? 'GET' : 'POST');
    const signal = spec.timeoutMs ? AbortSignal.any([ctx.signal, AbortSignal.timeout(spec.timeoutMs)]) : ctx.signal;
    let headers = {
        ...spec.headers,
        'Teamrun-Fencing-Token': String(ctx.fencingToken),
        'Idempotency-Key': `${ctx.workflowId}/${ctx.taskKey}/${ctx.fencingToken}`,
        // With tracing on, the service's spans join the attempt's (W3C trace context).
        ...traceHeader(),
    };
    let body = spec.body === undefined ? undefined : typeof spec.body === 'string' ? spec.body : JSON.stringify(spec.body);
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
        headers['Content-Type'] = 'application/json';
    let url = new URL(spec.url);
    let answer;
    for (let redirects = 0;; redirects++) {
        try {
            answer = await send(url, method, headers, body, signal, policy, maxBodyBytes);
        }
        catch (err) {
            if (ctx.signal.aborted)
                throw err;
            if (err instanceof http_guard_1.HostRefused) {
                throw new types_1.ExecutorError(redact(`${method} ${url.href}: refused: ${err.message}`), {
                    nonRetryable: true,
                    type: 'TeamHttpHostRefused',
                });
            }
            if (err instanceof BodyTooLarge) {
                throw new types_1.ExecutorError(redact(`${method} ${url.href}: the response body is over ${maxBodyBytes} bytes ` +
                    `(worker.http.maxBodyBytes); the worker stopped reading at ${err.read} bytes`), { nonRetryable: true, type: 'TeamHttpBodyTooLarge' });
            }
            const timedOut = err.name === 'TimeoutError' || (signal.aborted && signal.reason?.name === 'TimeoutError');
            throw new types_1.ExecutorError(redact(`${method} ${url.href}: ${timedOut ? `timed out after ${spec.timeoutMs} ms` : err.message}`), {
                type: timedOut ? 'TeamExecutorTimeout' : 'TeamHttpUnreachable',
            });
        }
        const location = answer.headers.location;
        if (!REDIRECTS.has(answer.status) || !location)
            break;
        if (redirects >= maxRedirects) {
            throw new types_1.ExecutorError(redact(`${method} ${spec.url}: more than ${maxRedirects} redirects (worker.http.maxRedirects)`), {
                nonRetryable: true,
                type: 'TeamHttpTooManyRedirects',
            });
        }
        const next = new URL(location, url);
        if (next.protocol !== 'http:' && next.protocol !== 'https:') {
            throw new types_1.ExecutorError(redact(`${method} ${url.href}: redirect to ${next.protocol} refused (http and https only)`), {
                nonRetryable: true,
                type: 'TeamHttpHostRefused',
            });
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
    const reported = json && typeof json === 'object' ? json.usage : undefined;
    const usage = reported === undefined ? undefined : schema_1.UsageSchema.safeParse(reported);
    if (usage && !usage.success) {
        // Usage that does not fit the contract cannot be counted: the attempt fails for good, as an activity's does.
        const issue = usage.error.issues[0];
        const where = issue.path.length ? `usage.${issue.path.join('.')}` : 'usage';
        throw new types_1.ExecutorError(redact(`${method} ${url.href}: the response's usage does not fit the contract: ${where}: ${issue.message}`), { nonRetryable: true, type: 'TeamInvalidUsage' });
    }
    const reportedUsage = usage?.data;
    if (reportedUsage)
        await ctx.budget?.report(reportedUsage);
    const output = json && typeof json === 'object' && 'output' in json ? json.output : undefined;
    if (answer.status < 200 || answer.status >= 300) {
        const nonRetryable = answer.status >= 400 && answer.status < 500 && !RETRYABLE_4XX.has(answer.status);
        // Redacted before the cut: a secret the cut would split is already gone.
        const excerpt = redact(text).slice(0, ERROR_BODY_CHARS);
        throw new types_1.ExecutorError(redact(`${method} ${url.href}: HTTP ${answer.status}${excerpt ? `: ${excerpt}` : ''}`), {
            nonRetryable,
            type: `TeamHttp${answer.status}`,
            usage: reportedUsage,
        });
    }
    return { output, usage: reportedUsage };
});
class BodyTooLarge extends errors_1.TeamrunError {
    read;
    code = 'TeamHttpBodyTooLarge';
    constructor(read) {
        super(`body over the limit after ${read} bytes`);
        this.read = read;
    }
}
/** One request, no redirect followed; the body is read up to `maxBodyBytes` and no further. */
function send(url, method, headers, body, signal, policy, maxBodyBytes) {
    const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
    const hostname = url.hostname.replace(/^\[|\]$/g, '');
    // A literal address is connected to without a lookup: check it here.
    if ((0, node_net_1.isIP)(hostname)) {
        const refusal = policy.refusal(hostname, port, hostname);
        if (refusal)
            return Promise.reject(new http_guard_1.HostRefused(refusal));
    }
    const transport = url.protocol === 'https:' ? node_https_1.default : node_http_1.default;
    return new Promise((resolve, reject) => {
        const req = transport.request(url, {
            method,
            headers: { ...headers, ...(body !== undefined ? { 'Content-Length': String(Buffer.byteLength(body)) } : {}) },
            signal,
            lookup: policy.lookupFor(port),
        }, (res) => {
            const tooLarge = (read) => {
                // Rejected first: destroying the response reports an abort of its own, which must not win.
                reject(new BodyTooLarge(read));
                res.destroy();
            };
            const declared = Number(res.headers['content-length']);
            if (Number.isFinite(declared) && declared > maxBodyBytes)
                return tooLarge(0);
            const chunks = [];
            let read = 0;
            res.on('data', (chunk) => {
                read += chunk.length;
                if (read > maxBodyBytes)
                    return tooLarge(read);
                chunks.push(chunk);
            });
            res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
            res.on('error', reject);
            res.on('aborted', () => reject(new Error('the connection closed before the response ended')));
        });
        req.on('error', reject);
        req.end(body);
    });
}
function traceHeader() {
    const parent = (0, spans_1.traceparent)();
    return parent ? { traceparent: parent } : {};
}
function withoutHeaders(headers, names) {
    return Object.fromEntries(Object.entries(headers).filter(([name]) => !names.includes(name.toLowerCase())));
}
function parseJson(text) {
    try {
        return JSON.parse(text);
    }
    catch {
        return undefined;
    }
}
