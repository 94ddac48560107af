/**
 * The agent speaks to its run as its attempt through the worker's attempt gateway, as a shell
 * task's `teamrun send` does: its journal steps and teamrun's own tools (send_message, read_inbox,
 * add_tasks) all carry the attempt's identity and fencing token, filled in by the gateway.
 */
import http from 'node:http';
import type { JournalAnswer, JournalOp } from '../../../agent/types';
import type { AttemptAccess } from '../../interface';

/** The gateway waits up to 60 s for its run; a little more here. */
const GATEWAY_TIMEOUT_MS = 70_000;
/** A journal's open answer holds the whole transcript (at most JOURNAL_LIMITS.transcriptBytes). */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** A refusal from the gateway or the run, with its stable code. */
export class GatewayRefusal extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(`${code}: ${message}`);
    this.name = 'GatewayRefusal';
  }
}

export class AgentGateway {
  constructor(
    private readonly access: AttemptAccess,
    private readonly signal: AbortSignal,
  ) {}

  journal<Op extends JournalOp['op']>(
    request: Extract<JournalOp, { op: Op }>,
  ): Promise<Extract<JournalAnswer, { op: Op }>> {
    return this.post('journal', request);
  }

  post<T>(path: 'journal' | 'sendMessage' | 'readInbox' | 'addTasks', body: object): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const req = http.request(
        {
          socketPath: this.access.socket,
          path: `/${path}`,
          method: 'POST',
          headers: { authorization: `Bearer ${this.access.secret}`, 'content-type': 'application/json' },
          timeout: GATEWAY_TIMEOUT_MS,
          signal: this.signal,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_ANSWER_BYTES) req.destroy(new Error(`answer over ${MAX_ANSWER_BYTES} bytes`));
            else chunks.push(chunk);
          });
          res.on('end', () => {
            try {
              const answer = JSON.parse(Buffer.concat(chunks).toString('utf8')) as
                { ok: true; answer: T } | { ok: false; code: string; message: string };
              if (answer.ok) resolve(answer.answer);
              else reject(new GatewayRefusal(answer.code, answer.message));
            } catch (err) {
              reject(err as Error);
            }
          });
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`the attempt gateway did not answer in ${GATEWAY_TIMEOUT_MS} ms`)));
      req.on('error', reject);
      req.end(JSON.stringify(body));
    });
  }
}
