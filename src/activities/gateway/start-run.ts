/**
 * The attempt gateway's `/startRun` (docs/teams.md, "A coordinator's runs"): a task starts a team run as its attempt
 * (`start_run` of `teamrun mcp`, `teamrun start`, inside the task). The gateway starts it with the worker's client,
 * its memo naming the run, task and token that started it, then links it to the attempt (`linkRun`, proven as the
 * attempt's) so that the attempt's end aborts it. A link the run refuses (the attempt ended meanwhile) leaves no run
 * behind: the gateway terminates the one it started. At most `limit` runs per attempt.
 */
import { randomBytes } from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { z } from 'zod';
import type { WorkflowType } from '../../contract';
import { validatePlan } from '../../plan/validate';
import { runSummary } from '../../format';
import { TeamName } from '../../workflows/search-attributes';
import type { AttemptIdentity } from '../interface';
import type { GatewayAnswer } from './reserve';
import { refusalOf } from './wire';

/** Runs one attempt may start when the worker's config sets no other bound (`worker.maxRunsPerAttempt`). */
export const DEFAULT_RUNS_PER_ATTEMPT = 10;
const WORKFLOW: WorkflowType = 'teamRun';
/** Problems quoted in a refusal of an invalid plan. */
const QUOTED_PROBLEMS = 5;

const StartRunSchema = z
  .object({
    plan: z.unknown(),
    runId: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._:#/-]{0,199}$/, 'runId must be 1..200 chars of [A-Za-z0-9._:#/-]')
      .optional(),
    taskQueue: z.string().min(1).max(200).optional(),
    actor: z.string().min(1).max(200).optional(),
  })
  .strict();

/** What the run's memo says of the attempt that started it. */
export interface StartedBy {
  run: string;
  task: string;
  fencingToken: number;
}

export interface StartRunAccess {
  client: Client;
  identity: AttemptIdentity;
  /** The queue the run goes to when the request names none: the worker's own. */
  taskQueue: string;
  /** The runs this attempt started (or is starting) so far, and the most it may. */
  started: { count: number };
  limit: number;
  /** The attempt's `linkRun`, proven as its own (gateway.ts). */
  link(body: Record<string, unknown>): Promise<unknown>;
  /** The plan as it may reach history: the attempt's secrets redacted. */
  redact(plan: unknown): unknown;
}

export async function startRun(access: StartRunAccess, body: unknown): Promise<[number, GatewayAnswer]> {
  const refuse = (status: number, code: string, message: string): [number, GatewayAnswer] => [
    status,
    { ok: false, code, message: `startRun: ${message}` },
  ];
  const parsed = StartRunSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return refuse(400, 'TEAM_ATTEMPT_REQUEST_INVALID', `${issue.path.join('.') || 'payload'}: ${issue.message}`);
  }
  const { runId, actor } = parsed.data;
  const plan = access.redact(parsed.data.plan);
  const checked = validatePlan(plan);
  if (!checked.ok) {
    const quoted = checked.problems.slice(0, QUOTED_PROBLEMS).map((p) => `${p.path}: ${p.message}`);
    return refuse(400, 'invalid_plan', `${checked.problems.length} problem(s): ${quoted.join('; ')}`);
  }
  if (access.started.count >= access.limit)
    return refuse(
      429,
      'TEAM_ATTEMPT_TOO_MANY_RUNS',
      `this attempt has started ${access.started.count} runs, the most its worker allows (worker.maxRunsPerAttempt)`,
    );
  access.started.count += 1;
  const { identity, client } = access;
  const name = checked.plan.name;
  const workflowId =
    runId ?? `${name}-${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}`;
  const taskQueue = parsed.data.taskQueue ?? access.taskQueue;
  const startedBy: StartedBy = {
    run: identity.workflowId,
    task: identity.taskKey,
    fencingToken: identity.fencingToken,
  };
  try {
    await client.workflow.start(WORKFLOW, {
      taskQueue,
      workflowId,
      args: [plan],
      memo: { startedBy },
      typedSearchAttributes: [{ key: TeamName, value: name }],
      staticSummary: `${runSummary(checked.plan)}; started by task ${identity.taskKey} of ${identity.workflowId}`,
    });
  } catch (err) {
    access.started.count -= 1;
    if (err instanceof WorkflowExecutionAlreadyStartedError)
      return refuse(409, 'already_started', `a run with id "${workflowId}" is already running: pick another`);
    return refuse(502, 'TEAM_ATTEMPT_GATEWAY_FAILED', `could not start the run: ${(err as Error)?.message ?? err}`);
  }
  let verdict: unknown;
  try {
    verdict = await access.link({ runId: workflowId, ...(actor ? { actor } : {}) });
  } catch (err) {
    const refusal = refusalOf(err, 'linkRun');
    // Nothing of the task's may run unlinked: the run it could not link ends here.
    await client.workflow
      .getHandle(workflowId)
      .terminate(`its coordinator's run refused the link: ${refusal.code}`)
      .catch(() => undefined);
    return refuse(
      refusal.status,
      refusal.code,
      `the run was started, refused its link and terminated: ${refusal.message}`,
    );
  }
  const linked = (verdict as { linked?: number } | undefined)?.linked;
  return [200, { ok: true, answer: { runId: workflowId, taskQueue, startedBy, linked } }];
}
