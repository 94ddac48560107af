"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.GATEWAY_TIMEOUT_MS = void 0;
exports.postToGateway = postToGateway;
/**
 * One request to a worker's attempt gateway (attempt-gateway.ts) over its Unix socket, as the
 * attempt: what `teamrun send`/`inbox`/`add-tasks`/`reserve` inside a task and the agent kind's
 * loop both send. The gateway answers JSON: `{ ok: true, answer }` or `{ ok: false, code, message }`.
 */
const node_http_1 = __importDefault(require("node:http"));
/** Longer than the gateway waits for its run (60 s), so the gateway's own answer comes first. */
exports.GATEWAY_TIMEOUT_MS = 75_000;
/** The largest answer: a readInbox batch of bounded messages, or a journal's transcript (4 MiB). */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;
/** Resolves with the gateway's answer as text; rejects when it cannot be reached or does not answer in time. */
function postToGateway(gateway, path, body, signal) {
    return new Promise((resolve, reject) => {
        const req = node_http_1.default.request({
            socketPath: gateway.socket,
            path: `/${path}`,
            method: 'POST',
            headers: { authorization: `Bearer ${gateway.secret}`, 'content-type': 'application/json' },
            timeout: exports.GATEWAY_TIMEOUT_MS,
            ...(signal ? { signal } : {}),
        }, (res) => {
            const chunks = [];
            let size = 0;
            res.on('data', (chunk) => {
                size += chunk.length;
                if (size > MAX_ANSWER_BYTES)
                    req.destroy(new Error(`answer over ${MAX_ANSWER_BYTES} bytes`));
                else
                    chunks.push(chunk);
            });
            res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
            res.on('error', reject);
        });
        req.on('timeout', () => req.destroy(new Error(`no answer in ${exports.GATEWAY_TIMEOUT_MS / 1000} s`)));
        req.on('error', reject);
        req.end(JSON.stringify(body));
    });
}
