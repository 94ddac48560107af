/**
 * One request to a worker's attempt gateway (gateway.ts) over its Unix socket, as the
 * attempt: what `teamrun send`/`inbox`/`add-tasks`/`reserve` inside a task and the agent kind's
 * loop both send. The gateway answers JSON: `{ ok: true, answer }` or `{ ok: false, code, message }`.
 */
import http from 'node:http';

/** Longer than the gateway waits for its run (60 s), so the gateway's own answer comes first. */
export const GATEWAY_TIMEOUT_MS = 75_000;
/** The largest answer: a readInbox batch of bounded messages, or a journal's transcript (4 MiB). */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** Resolves with the gateway's answer as text; rejects when it cannot be reached or does not answer in time. */
export function postToGateway(
  gateway: { socket: string; secret: string },
  path: string,
  body: object,
  signal?: AbortSignal,
): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const req = http.request(
      {
        socketPath: gateway.socket,
        path: `/${path}`,
        method: 'POST',
        headers: { authorization: `Bearer ${gateway.secret}`, 'content-type': 'application/json' },
        timeout: GATEWAY_TIMEOUT_MS,
        ...(signal ? { signal } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) req.destroy(new Error(`answer over ${MAX_ANSWER_BYTES} bytes`));
          else chunks.push(chunk);
        });
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer in ${GATEWAY_TIMEOUT_MS / 1000} s`)));
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}
