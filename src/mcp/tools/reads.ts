/** The read-only tools: checking a plan, and looking at runs, their tasks, logs and events. */
import { z } from 'zod';
import { readLive } from '../../client/live';
import { listTeamRuns, parseSince } from '../../client/runs';
import { TASK_STATUSES } from '../../team/types';
import type { TaskStatus } from '../../contract';
import { planToolSchema } from '../../plan/task-tool';
import { validatePlan } from '../../plan/validate';
import { loadRunAttempts } from '../../report';
import { readTranscript, TRANSCRIPT_PAGE, transcriptPage } from '../../operator/agent-transcript';
import { planChecks } from '../../operator/plan-file';
import { planNotes } from '../../operator/fair-share';
import { McpRefusal, runHandle } from '../context';
import { cursor, decodeCursor, defineTool, encodeCursor, runId } from '../tool';
import { readTasks, resolveRunTarget } from '../run-reads';
import { readTree, TREE_LIMITS } from '../../operator/tree';
import { runStatus } from '../wait';

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** Problems one validate_plan answer lists; the rest are counted, never dropped unsaid. */
const MAX_PROBLEMS = 200;
/** Pages: tasks and runs carry outputs and summaries, so a page stays small enough for a model's context. */
const TASK_PAGE = { default: 50, max: 200 };
const RUN_PAGE = { default: 20, max: 100 };
/** listTeamRuns reads at most this many runs (client/runs.ts). */
const MAX_RUNS_LISTED = 1_000;
const EVENT_PAGE = { default: 100, max: 500 };

const kinds = z
  .array(z.string().regex(/^[A-Za-z0-9._-]{1,64}$/))
  .max(64)
  .optional()
  .describe("custom executor kinds the project's workers register, beyond worker.customKinds");

export const validatePlanTool = defineTool({
  name: 'validate_plan',
  title: 'Check a plan',
  description:
    'Check a TeamPlan (schema, graph, sizes, executor kinds) without starting it. Answers { ok: true, tasks, ' +
    'teammates, notes } or { ok: false, problems: [{ path, code, message }] } with every problem found. `notes` ' +
    'says what the plan allows but may not mean (tasks that hold, and lost are charged, a fair share of the budget).',
  input: z.object({ plan: z.unknown(), kinds }),
  listedJson: () => {
    // As start_run lists it: the plan's generated schema, its task once under the root's $defs.
    const { $defs, ...plan } = planToolSchema();
    const { properties } = z.toJSONSchema(z.object({ kinds }), { io: 'input' }) as { properties: object };
    return { type: 'object', properties: { plan, ...properties }, required: ['plan'], $defs };
  },
  annotations: { ...READ_ONLY, title: 'Check a plan' },
  run: async ({ plan, kinds: extra }, ctx) => {
    const checked = validatePlan(plan, planChecks(ctx.config, extra));
    if (checked.ok) {
      const { name, tasks, teammates } = checked.plan;
      return { ok: true, name, tasks: tasks.length, teammates, notes: planNotes(checked.plan) };
    }
    const problems = checked.problems.slice(0, MAX_PROBLEMS);
    return { ok: false, problems, omittedProblems: checked.problems.length - problems.length };
  },
});

export const runStatusTool = defineTool({
  name: 'run_status',
  title: 'Status of a run',
  description:
    "A run's state, task counts, budget and pending adjudications, open or closed, with a `cursor`. Pass that " +
    'cursor back with waitMs (up to 60000) to wait until something happens in the run (or it ends): cheap ' +
    'polling (waitMs without a cursor waits for a change from the run as the call finds it). With a ' +
    'progressToken, progress notifications come while it waits. A run with team tasks also answers its `tree` ' +
    'of child runs (each with its runId and path, `root/key/key`); name a child by runId ' +
    '(`<parent>/<key>#<token>`) or by path.',
  input: z.object({
    runId: runId.optional(),
    path: z
      .string()
      .min(1)
      .max(1_000)
      .optional()
      .describe("instead of runId: a run's path in a tree of teams, root/key/key (each key a team task)"),
    cursor: cursor.optional(),
    waitMs: z
      .number()
      .int()
      .min(0)
      .max(60_000)
      .optional()
      .describe('wait this long for a change after cursor (without one: after the call)'),
    depth: z.number().int().min(0).max(TREE_LIMITS.depth).optional().describe('levels of child runs (default 2)'),
  }),
  annotations: { ...READ_ONLY, title: 'Status of a run' },
  run: async (args, ctx, call) => {
    const id = await resolveRunTarget(ctx, args);
    const status = await runStatus(ctx, { ...args, runId: id }, call);
    const tree = await readTree(ctx.client, id, { depth: args.depth ?? 2 });
    return { runId: id, ...status, ...(tree.teamTasks ? { tree } : {}) };
  },
});

export const listRunsTool = defineTool({
  name: 'list_runs',
  title: 'List runs',
  description:
    'Recent team runs, newest first: id, team, state, progress, pending adjudications, budget used. Paged: ' +
    'pass nextCursor for the next page (up to the 1,000 newest matching runs; narrow with team, status, since).',
  input: z.object({
    team: z.string().max(100).optional(),
    status: z.array(z.string().max(40)).max(20).optional().describe('run states or workflow statuses, any of'),
    since: z.string().max(40).optional().describe('runs started since: 7d, 12h, 30m, or an ISO date'),
    limit: z.number().int().min(1).max(RUN_PAGE.max).optional(),
    cursor: cursor.optional(),
  }),
  annotations: { ...READ_ONLY, title: 'List runs' },
  run: async (args, ctx) => {
    const offset = decodeCursor(args.cursor);
    const limit = args.limit ?? RUN_PAGE.default;
    if (offset >= MAX_RUNS_LISTED)
      throw new McpRefusal('invalid_request', 'list_runs pages through the 1,000 newest runs: narrow the filter');
    const runs = await listTeamRuns(ctx.client, {
      team: args.team,
      statuses: args.status,
      since: args.since === undefined ? undefined : parseSince(args.since),
      limit: Math.min(offset + limit + 1, MAX_RUNS_LISTED),
    });
    const page = runs.slice(offset, offset + limit);
    const more = runs.length > offset + limit;
    return { runs: page, nextCursor: more ? encodeCursor(offset + limit) : null };
  },
});

export const listTasksTool = defineTool({
  name: 'list_tasks',
  title: 'List tasks of a run',
  description:
    "A run's tasks in plan order: status, attempts, the current fencingToken (what interrupt_task and " +
    'steer_task name), holder, last error, output. Paged: pass nextCursor for the next page.',
  input: z.object({
    runId,
    status: z.enum(TASK_STATUSES as [TaskStatus, ...TaskStatus[]]).optional(),
    limit: z.number().int().min(1).max(TASK_PAGE.max).optional(),
    cursor: cursor.optional(),
  }),
  annotations: { ...READ_ONLY, title: 'List tasks of a run' },
  run: async (args, ctx) => {
    const offset = decodeCursor(args.cursor);
    const limit = args.limit ?? TASK_PAGE.default;
    const tasks = await readTasks(ctx, args.runId, { status: args.status, offset, limit: limit + 1 });
    const more = tasks.length > limit;
    return { tasks: tasks.slice(0, limit), nextCursor: more ? encodeCursor(offset + limit) : null };
  },
});

export const taskLogTool = defineTool({
  name: 'task_log',
  title: "A task's log",
  description:
    'What one attempt of a task printed (the redacted tails of stdout and stderr the worker keeps), its outcome ' +
    'and links; the latest attempt unless `attempt` is given. Recorded when the attempt ends. For an agent task, ' +
    "also its transcript so far (every attempt's model calls, tool calls and results, redacted), a page of " +
    'steps at a time: pass transcript.nextCursor back as transcriptCursor to read on.',
  input: z.object({
    runId,
    key: z.string().min(1).max(128),
    attempt: z.number().int().min(1).optional(),
    transcriptCursor: z
      .string()
      .regex(/^\d{1,9}$/, 'transcriptCursor: a transcript.nextCursor this tool gave')
      .optional(),
    transcriptLimit: z.number().int().min(1).max(TRANSCRIPT_PAGE.max).optional(),
  }),
  annotations: { ...READ_ONLY, title: "A task's log" },
  run: async ({ runId: id, key, attempt, transcriptCursor, transcriptLimit }, ctx) => {
    const report = await loadRunAttempts(ctx.client, id);
    const attempts = report.tasks.find((t) => t.key === key)?.attempts ?? [];
    if (!attempts.length) throw new McpRefusal('not_found', `run ${id} has no attempt of task "${key}" yet`);
    const chosen = attempt === undefined ? attempts[attempts.length - 1] : attempts.find((a) => a.attempt === attempt);
    if (!chosen) {
      const numbers = attempts.map((a) => a.attempt).join(', ');
      throw new McpRefusal('not_found', `task "${key}" has no attempt ${attempt} (attempts: ${numbers})`);
    }
    const journal = await readTranscript(ctx.client, id, key);
    const limit = transcriptLimit ?? TRANSCRIPT_PAGE.default;
    const transcript = journal ? transcriptPage(journal, Number(transcriptCursor ?? 0), limit) : null;
    return { key, attempts: attempts.map((a) => a.attempt), attempt: chosen, transcript };
  },
});

export const readEventsTool = defineTool({
  name: 'read_events',
  title: "A run's events",
  description:
    "The run's events after `cursor`, oldest first (task:claimed, task:completed, task:adjudication-required, " +
    'run:end, ...). Pass nextCursor back to read on; `gap` says when events older than the run keeps were ' +
    'passed over (teamrun report has its whole history). `live` lists what each attempt in a model call is ' +
    'writing now (turn, the tail of its text, tool calls so far; published about once a second, never in ' +
    'history): gone once the call ends, when its agent:turn event follows.',
  input: z.object({
    runId,
    cursor: z
      .string()
      .regex(/^\d{1,15}$/, 'cursor: a nextCursor this tool gave')
      .optional(),
    limit: z.number().int().min(1).max(EVENT_PAGE.max).optional(),
  }),
  annotations: { ...READ_ONLY, title: "A run's events" },
  run: async (args, ctx) => {
    const handle = await runHandle(ctx, args.runId);
    const after = Number(args.cursor ?? 0);
    const page = await handle.events({ after, limit: args.limit ?? EVENT_PAGE.default });
    const first = page.events[0]?.seq;
    const gap = first !== undefined && first > after + 1 ? { fromSeq: after + 1, toSeq: first - 1 } : null;
    const live = (await readLive(ctx.client, args.runId)).map(({ activityId: _id, ...partial }) => partial);
    return { events: page.events, nextCursor: String(page.nextSeq), gap, live };
  },
});
