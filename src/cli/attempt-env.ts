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
