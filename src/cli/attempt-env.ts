import { postToGateway } from '../activities/gateway/request';
import { CliError } from '../operator/context';

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

/**
 * Sends a request to the run as the attempt, through its worker's gateway: the worker adds who it
 * is from and sends it with its own client and codec. Resolves with the run's verdict; a refusal
 * is a CliError with the run's code.
 */
export async function askGateway<T>(
  gateway: { socket: string; secret: string },
  message: 'sendMessage' | 'readInbox' | 'addTasks' | 'reserve' | 'startRun',
  body: Record<string, unknown>,
): Promise<T> {
  const text = await postToGateway(gateway, message, body).catch((err: Error) => {
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
