/**
 * `start_run` inside a task (docs/teams.md, "A coordinator's runs"): the run is started by the attempt's worker,
 * through its gateway, and linked to the attempt so that the attempt's end aborts it. The server never names the
 * attempt: the gateway knows it by the secret the worker gave this process.
 */
import { postToGateway } from '../activities/gateway/request';
import { McpRefusal, type McpContext } from './context';

/** What the gateway answers a started run with. */
interface Started {
  runId: string;
  taskQueue: string;
  startedBy: { run: string; task: string; fencingToken: number };
  linked?: number;
}

export async function startLinkedRun(
  ctx: McpContext & { attempt: NonNullable<McpContext['attempt']> },
  plan: unknown,
  runId: string | undefined,
): Promise<Started> {
  const body = { plan, taskQueue: ctx.config.connection.taskQueue, actor: ctx.actor, ...(runId ? { runId } : {}) };
  let text: string;
  try {
    text = await postToGateway(ctx.attempt, 'startRun', body);
  } catch (err) {
    throw new McpRefusal(
      'start_refused',
      `the worker's attempt gateway ($TEAMRUN_ATTEMPT_SOCKET) did not answer: ${(err as Error).message}`,
    );
  }
  let answer: { ok: true; answer: Started } | { ok: false; code: string; message: string };
  try {
    answer = JSON.parse(text) as typeof answer;
  } catch {
    throw new McpRefusal('start_refused', `the worker's attempt gateway answered no JSON: ${text.slice(0, 200)}`);
  }
  if (!answer.ok) throw new McpRefusal(answer.code, answer.message);
  return answer.answer;
}
