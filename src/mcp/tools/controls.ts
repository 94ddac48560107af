/**
 * The tools that change a run, each one message of the run sent through its typed handle with the
 * server's own actor: the run checks that actor against governance.operators as for any door.
 */
import { randomUUID } from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import { z } from 'zod';
import { startTeamRun } from '../../client';
import type { TeamRunHandle } from '../../client/handle';
import type { TeamPlanInput } from '../../plan/schema';
import { TaskSchema, type TeamPlan } from '../../plan/schema';
import { addTasksToolSchema, planToolSchema, taskProblems } from '../../plan/task-tool';
import {
  AbortCodeSchema,
  AdjudicateRequestSchema,
  MESSAGE_LIMITS,
  ReopenTaskRequestSchema,
} from '../../plan/requests/control';
import { ADD_TASKS_LIMITS } from '../../plan/requests/add-tasks';
import { MAILBOX_LIMITS } from '../../plan/requests/mailbox';
import { validatePlan } from '../../plan/validate';
import { APPROVAL_CODE } from '../../team/approval';
import { planChecks } from '../../operator/plan-file';
import { planNotes } from '../../operator/fair-share';
import { startFailure } from '../../operator/start-errors';
import { McpRefusal, runHandle, type McpContext } from '../context';
import { globMatcher } from '../../activities/executors/shell-env';
import { defineTool, runId } from '../tool';
import { startLinkedRun } from '../start-linked';

const key = z.string().min(1).max(128).describe('the task key');
const fencingToken = z.number().int().min(0).optional().describe('the attempt to act on (default: the current one)');
const requestId = z.string().min(1).max(MESSAGE_LIMITS.idChars).optional().describe('repeat it to make a retry safe');
const reason = z.string().max(MESSAGE_LIMITS.reasonChars);
/** Plan problems quoted in a refused start; validate_plan lists every one. */
const QUOTED_PROBLEMS = 20;
/** The contract's bound on a steering text. */
const STEER_TEXT_BYTES = 8 * 1024;

const parent = z.string().max(128).optional().describe('the task they are added under');
const toJson = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;

/** Problems quoted in a refusal, the first QUOTED_PROBLEMS of them. */
function quoteProblems(problems: ReadonlyArray<{ path: string; message: string }>): string {
  const quoted = problems.slice(0, QUOTED_PROBLEMS).map((p) => `${p.path}: ${p.message}`);
  const more = problems.length - quoted.length;
  return `${problems.length} problem(s): ${quoted.join('; ')}${more ? `; and ${more} more` : ''}`;
}

const CONTROL = { readOnlyHint: false, openWorldHint: false };

export const startRunTool = defineTool({
  name: 'start_run',
  title: 'Start a run',
  description:
    'Check a TeamPlan as validate_plan does and start it as a team run; returns at once with its runId ' +
    "(follow it with run_status and read_events) and validate_plan's notes. A runId already running is refused " +
    'already_started. Inside a ' +
    "task the run is linked to the task's attempt (startedBy): the attempt's end aborts it.",
  input: z.object({ plan: z.unknown(), runId: runId.optional() }),
  listedJson: () => {
    // $defs at the root: the plan's `$ref`s point at the document's root, which is this tool's input.
    const { $defs, ...plan } = planToolSchema();
    return { type: 'object', properties: { plan, runId: toJson(runId) }, required: ['plan'], $defs };
  },
  annotations: { ...CONTROL, destructiveHint: false, idempotentHint: false, openWorldHint: true, title: 'Start a run' },
  run: async (args, ctx) => {
    const checked = validatePlan(args.plan, planChecks(ctx.config));
    if (!checked.ok) {
      const quoted = checked.problems.slice(0, QUOTED_PROBLEMS).map((p) => `${p.path}: ${p.message}`);
      const more = checked.problems.length - quoted.length;
      throw new McpRefusal(
        'invalid_plan',
        `${checked.problems.length} problem(s): ${quoted.join('; ')}${more ? `; and ${more} more` : ''} ` +
          '(validate_plan lists them with their codes)',
      );
    }
    checkStartAllowed(checked.plan, ctx);
    // Inside a task the attempt's worker starts it, linked to the attempt (its end aborts the run).
    if (ctx.attempt) {
      const {
        runId: id,
        taskQueue,
        startedBy,
      } = await startLinkedRun({ ...ctx, attempt: ctx.attempt }, args.plan, args.runId);
      return {
        runId: id,
        taskQueue,
        startedBy,
        resources: [`teamrun://runs/${id}/status`, `teamrun://runs/${id}/report`],
        notes: planNotes(checked.plan),
      };
    }
    const taskQueue = ctx.config.connection.taskQueue;
    try {
      const handle = await startTeamRun(ctx.client, args.plan as TeamPlanInput, { taskQueue, workflowId: args.runId });
      const id = handle.workflowId;
      const resources = [`teamrun://runs/${id}/status`, `teamrun://runs/${id}/report`];
      return { runId: id, taskQueue, resources, notes: planNotes(checked.plan) };
    } catch (err) {
      if (err instanceof WorkflowExecutionAlreadyStartedError)
        throw new McpRefusal('already_started', `a run with id "${err.workflowId}" is already running: pick another`);
      throw new McpRefusal('start_refused', (await startFailure(err, ctx.client, args.plan)).message);
    }
  },
});

/**
 * `mcp.startPlans`: the plans this door may start, by name, and only under a governance that lists
 * this server's actor among the run's operators (a plan cannot hand its run to someone else).
 */
function checkStartAllowed(plan: TeamPlan, ctx: McpContext): void {
  const allowed = ctx.config.mcp.startPlans;
  if (allowed === undefined) return;
  if (!allowed.some((pattern) => globMatcher([pattern])(plan.name)))
    throw new McpRefusal(
      'start_not_allowed',
      `plan "${plan.name}" is not one this server may start (mcp.startPlans: ${allowed.join(', ') || 'none'})`,
    );
  const operators = plan.governance?.operators;
  if (!operators?.includes(ctx.actor))
    throw new McpRefusal(
      'start_not_allowed',
      `a plan started here must list this server's actor "${ctx.actor}" in governance.operators ` +
        `(it lists ${operators ? operators.map((o) => `"${o}"`).join(', ') : 'none'})`,
    );
}

/** The attempt's token as the caller gave it, else the one holding the lease now (so only what was seen stops). */
async function currentToken(handle: TeamRunHandle, task: string, given: number | undefined) {
  return given ?? (await handle.activeClaims()).find((c) => c.key === task)?.fencingToken;
}

export const interruptTaskTool = defineTool({
  name: 'interrupt_task',
  title: 'Interrupt a task',
  description:
    'Take over a running task: its attempt is cancelled and the task settles in adjudication ' +
    '(TEAM_TASK_HUMAN_INTERRUPTED), never retried on its own; decide it with adjudicate.',
  input: z.object({ runId, key, fencingToken, reason: reason.optional(), requestId }),
  annotations: { ...CONTROL, destructiveHint: true, idempotentHint: true, title: 'Interrupt a task' },
  run: async (args, ctx) => {
    const handle = await runHandle(ctx, args.runId);
    const verdict = await handle.interrupt({
      key: args.key,
      fencingToken: await currentToken(handle, args.key, args.fencingToken),
      requestId: args.requestId ?? randomUUID(),
      actor: ctx.actor,
      reason: args.reason,
    });
    if (!verdict.ok) throw new McpRefusal(verdict.reason, verdict.message ?? `interrupt_task: ${args.key}`);
    return verdict;
  },
});

export const steerTaskTool = defineTool({
  name: 'steer_task',
  title: 'Steer an agent task',
  description: 'Add guidance to a running agent task: the text joins its next model call. Answers { ok: true, turn }.',
  input: z.object({
    runId,
    key,
    text: z
      .string()
      .min(1)
      .refine((t) => Buffer.byteLength(t) <= STEER_TEXT_BYTES, 'text: at most 8 KiB'),
    fencingToken,
    requestId,
  }),
  annotations: { ...CONTROL, destructiveHint: false, idempotentHint: false, title: 'Steer an agent task' },
  run: async (args, ctx) => {
    const handle = await runHandle(ctx, args.runId);
    const request = {
      key: args.key,
      text: args.text,
      fencingToken: await currentToken(handle, args.key, args.fencingToken),
      requestId: args.requestId ?? randomUUID(),
      actor: ctx.actor,
    };
    // `steerTask` has no typed method yet (it lands with the agent executor): sent by name through the handle,
    // whose executeUpdate retries a refusal at a handover as the typed methods do.
    return handle.executeUpdate<object, [typeof request]>('steerTask', { args: [request] });
  },
});

export const abortRunTool = defineTool({
  name: 'abort_run',
  title: 'Abort a run',
  description:
    'Stop the whole run: nothing new starts, running attempts are cancelled into adjudication (or failed with ' +
    'requireAdjudication false), tasks not started are skipped. Repeating it changes nothing more.',
  input: z.object({
    runId,
    reason: reason.min(1),
    code: AbortCodeSchema.optional(),
    requireAdjudication: z.boolean().optional(),
    requestId,
  }),
  annotations: { ...CONTROL, destructiveHint: true, idempotentHint: true, title: 'Abort a run' },
  run: async (args, ctx) => {
    const handle = await runHandle(ctx, args.runId);
    const verdict = await handle.abort({
      ...(args.code ? { code: args.code } : {}),
      reason: args.reason,
      requestId: args.requestId ?? randomUUID(),
      actor: ctx.actor,
      requireAdjudication: args.requireAdjudication,
    });
    if (!verdict.ok) throw new McpRefusal(verdict.reason, verdict.message ?? 'abort_run');
    return verdict;
  },
});

const decisionId = z.string().min(1).max(MESSAGE_LIMITS.idChars).optional();

export const adjudicateTool = defineTool({
  name: 'adjudicate',
  title: 'Decide an adjudication',
  description:
    'Decide a task waiting in adjudication: retry (run it again, new fencing token), accept (succeeded, with ' +
    '`result` as its output) or reject (failed; its dependents are skipped). The same decisionId again ' +
    'returns the first outcome.',
  input: AdjudicateRequestSchema.omit({ actor: true, decisionId: true }).extend({ runId, decisionId }),
  annotations: { ...CONTROL, destructiveHint: true, idempotentHint: true, title: 'Decide an adjudication' },
  run: async ({ runId: id, ...request }, ctx) => {
    const handle = await runHandle(ctx, id);
    return handle.adjudicate({ ...request, decisionId: request.decisionId ?? randomUUID(), actor: ctx.actor });
  },
});

export const reopenTaskTool = defineTool({
  name: 'reopen_task',
  title: 'Reopen a finished task',
  description:
    'Send a succeeded, failed or skipped task back to adjudication with a reason (a side effect turned out ' +
    'wrong): it waits there (TEAM_TASK_REOPENED) for adjudicate; its dependents that already ran are listed, ' +
    'not re-run. The same requestId again returns the first outcome. A closed run cannot be reopened.',
  input: ReopenTaskRequestSchema.omit({ actor: true, requestId: true }).extend({
    runId,
    requestId: decisionId,
  }),
  annotations: { ...CONTROL, destructiveHint: true, idempotentHint: true, title: 'Reopen a finished task' },
  run: async ({ runId: id, ...request }, ctx) => {
    const handle = await runHandle(ctx, id);
    try {
      return await handle.reopenTask({ ...request, requestId: request.requestId ?? randomUUID(), actor: ctx.actor });
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
      throw new McpRefusal(
        'run_closed',
        `run "${id}" is closed and cannot be reopened: start a new run (start_run) with the task to do it again`,
      );
    }
  },
});

export const approveTool = defineTool({
  name: 'approve',
  title: 'Answer an approval',
  description:
    'Answer an approval task (executor kind approval, waiting with TEAM_TASK_APPROVAL_REQUIRED): approved ' +
    'true lets its dependents run, false fails it. Other adjudications are decided with adjudicate.',
  input: z.object({ runId, key, approved: z.boolean(), reason: reason.optional(), decisionId }),
  annotations: { ...CONTROL, destructiveHint: true, idempotentHint: true, title: 'Answer an approval' },
  run: async (args, ctx) => {
    const handle = await runHandle(ctx, args.runId);
    const record = (await handle.adjudications()).find((a) => a.key === args.key && a.decision === null);
    if (record && record.code !== APPROVAL_CODE)
      throw new McpRefusal(
        'not_an_approval',
        `task "${args.key}" waits in adjudication with ${record.code}, not an approval: decide it with adjudicate`,
      );
    return handle.adjudicate({
      key: args.key,
      decision: args.approved ? 'accept' : 'reject',
      decisionId: args.decisionId ?? randomUUID(),
      actor: ctx.actor,
      reason: args.reason,
    });
  },
});

export const addTasksTool = defineTool({
  name: 'add_tasks',
  title: 'Add tasks to a run',
  description:
    "Add tasks to the running graph, checked as a plan's tasks are (keys, dependencies, budget spawn limits); " +
    'a refusal names the problem and its path. The same requestId again adds nothing more.',
  input: z.object({
    runId,
    tasks: z.array(z.unknown()).min(1).max(ADD_TASKS_LIMITS.maxTasks),
    parent,
    requestId,
  }),
  listedJson: () => {
    const { properties, required } = toJson(z.object({ runId, parent, requestId }));
    const { tasks } = addTasksToolSchema().properties as Record<string, unknown>;
    return {
      type: 'object',
      properties: { ...(properties as object), tasks },
      required: [...(required as string[]), 'tasks'],
    };
  },
  annotations: { ...CONTROL, destructiveHint: false, idempotentHint: false, openWorldHint: true, title: 'Add tasks' },
  run: async (args, ctx) => {
    // Every problem at once, with its path and a did-you-mean, before the run is asked.
    const problems = taskProblems(args.tasks);
    if (problems.length) throw new McpRefusal('invalid_tasks', quoteProblems(problems));
    const handle = await runHandle(ctx, args.runId);
    return handle.addTasks({
      tasks: args.tasks as z.input<typeof TaskSchema>[],
      ...(args.parent ? { parent: args.parent } : {}),
      requestId: args.requestId ?? randomUUID(),
      actor: ctx.actor,
    });
  },
});

export const sendMessageTool = defineTool({
  name: 'send_message',
  title: 'Send a mailbox message',
  description:
    "Send a message to a run's mailbox as coordinator: `to` a task key, teammate-<n>, coordinator or * (every " +
    'task not settled). A running task reads it with its inbox.',
  input: z.object({
    runId,
    to: z.string().min(1).max(128),
    subject: z.string().max(MAILBOX_LIMITS.subjectChars).optional(),
    body: z.unknown().describe(`any JSON, at most ${MAILBOX_LIMITS.bodyBytes} bytes`),
    requestId,
  }),
  annotations: { ...CONTROL, destructiveHint: false, idempotentHint: false, title: 'Send a mailbox message' },
  run: async (args, ctx) => {
    const handle = await runHandle(ctx, args.runId);
    return handle.sendMessage({
      from: 'coordinator',
      to: args.to,
      subject: args.subject,
      body: args.body,
      requestId: args.requestId,
      actor: ctx.actor,
    });
  },
});
