import http from 'node:http';
import { CliError } from './context';

/**
 * The attempt a command runs inside of, from the variables a shell task's attempt has
 * (`teamrun inbox`, `send`, `add-tasks`); null outside a task.
 */
export function attemptFromEnv(): { workflowId: string; key: string; fencingToken: number } | null {
  const { TEAMRUN_WORKFLOW_ID: workflowId, TEAMRUN_TASK_KEY: key, TEAMRUN_FENCING_TOKEN: token } = process.env;
  if (!workflowId || !key || !token) return null;
  if (!/^\d+$/.test(token)) throw new CliError(`TEAMRUN_FENCING_TOKEN is "${token}", not a number`);
  return { workflowId, key, fencingToken: Number(token) };
}

/** The worker's attempt gateway, when the command runs inside one of its attempts. */
export function gatewayFromEnv(): { socket: string; secret: string } | null {
  const { TEAMRUN_ATTEMPT_SOCKET: socket, TEAMRUN_ATTEMPT_SECRET: secret } = process.env;
  return socket && secret ? { socket, secret } : null;
}

/** Longer than the gateway waits for its run (60 s), so the gateway's own answer comes first. */
const GATEWAY_TIMEOUT_MS = 75_000;
/** A readInbox answer is at most one batch of bounded messages; anything bigger is not the gateway. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/**
 * Sends a request to the run as the attempt, through its worker's gateway: the worker adds who it
 * is from and sends it with its own client and codec. Resolves with the run's verdict; a refusal
 * is a CliError with the run's code.
 */
export async function askGateway<T>(
  gateway: { socket: string; secret: string },
  message: 'sendMessage' | 'readInbox' | 'addTasks' | 'reserve',
  body: Record<string, unknown>,
): Promise<T> {
  const text = await new Promise<string>((resolve, reject) => {
    const req = http.request(
      {
        socketPath: gateway.socket,
        path: `/${message}`,
        method: 'POST',
        headers: { authorization: `Bearer ${gateway.secret}`, 'content-type': 'application/json' },
        timeout: GATEWAY_TIMEOUT_MS,
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
  }).catch((err: Error) => {
    throw new CliError(
      `${message}: the worker's attempt gateway ($TEAMRUN_ATTEMPT_SOCKET) did not answer: ${err.message}`,
    );
  });
  let answer: { ok?: boolean; answer?: unknown; code?: unknown; message?: unknown };
  try {
    answer = JSON.parse(text) as typeof answer;
  } catch {
    throw new CliError(`${message}: the worker's attempt gateway answered something that is not JSON`);
  }
  if (answer.ok === true) return answer.answer as T;
  throw new GatewayRefusal(message, String(answer.code), String(answer.message));
}

/** The gateway, or the run behind it, refused the request: `refusal` is its stable code. */
export class GatewayRefusal extends CliError {
  constructor(
    message: string,
    readonly refusal: string,
    detail: string,
  ) {
    super(`${message} rejected: ${refusal}: ${detail}`);
  }
}
