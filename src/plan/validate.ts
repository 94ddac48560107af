import {
  BUILTIN_EXECUTOR_KINDS,
  PLAN_LIMITS,
  TEMPORAL_PAYLOAD_LIMIT_BYTES,
  TeamPlanSchema,
  isBuiltinExecutorKind,
  type TaskSpec,
  type TeamPlan,
} from './schema';
import { KeyIndex, findCycle, formatCycle, nearest } from './graph';
import { utf8Bytes } from './bytes';
import { normalizeScope } from './scope';
import { checkPlanEnv } from './env-rules';
import { checkPlanCliArgs } from './agent-cli-args';
import { unknownFieldProblems } from './unknown-keys';
import { packPlan } from './packed';
import type { PlanProblem } from './problem';
import { checkAgentTools, type KnownTools } from './agent';
import { resolveHookRole, resolveRoles } from './roles';
import { checkOutputRefs } from './output-refs';
import { checkTeamTasks } from './team-depth';
import { checkBudgetFits } from './budget-fit';

export type { PlanProblem };

export type PlanValidation = { ok: true; plan: TeamPlan } | { ok: false; problems: PlanProblem[] };

export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || '(plan)';
}

export function formatProblems(problems: PlanProblem[]): string {
  return problems.map((p) => `${p.path}: ${p.message}`).join('\n');
}

export interface ValidateOptions {
  /**
   * Custom executor kinds the caller knows a worker runs. Given (as `teamrun validate` gives
   * it), any other kind that is not built in is a problem with a did-you-mean; left out (as in
   * the workflow, which cannot know its workers), any well-formed kind passes.
   */
  knownKinds?: Iterable<string>;
  /**
   * The worker restricts its commands (`worker.shell.allowCommands`): a plan's `env` may then not
   * set what chooses the program or what it loads (env-rules.ts). The workflow cannot know it;
   * the worker checks again when an attempt starts.
   */
  commandsRestricted?: boolean;
  /** With commandsRestricted, the names a plan's env may set (`worker.shell.planEnv`; default env-rules.ts's). */
  planEnv?: ReadonlyArray<string>;
  /**
   * The worker's coding-agent CLIs (`worker.agentClis`): each `agent-cli` task's `args` are then
   * checked against its CLI's `allowArgs`, as flag-value pairs. The worker checks again.
   */
  agentClis?: Readonly<Partial<Record<string, { allowArgs: unknown }>>>;
  /**
   * The tools a worker offers, as its config says (`teamrun validate` with a config file): an agent task's tool
   * on a server the worker does not have is a problem. Left out (the workflow), any well-formed name passes.
   */
  knownTools?: KnownTools;
  /** The worker's JSON Schema compiler: a task's outputSchema it cannot compile is a problem (`teamrun validate`). */
  outputSchemaProblem?: (schema: Record<string, unknown>) => string | null;
  /**
   * A task that reserves more before it starts than the run's budget is a problem (budget-fit.ts): every client door
   * through `planChecks`. Left out (the workflow), such a plan starts and stops `budget_stopped`, as recorded runs did.
   */
  budgetFits?: boolean;
}

/** Parses a plan and checks its graph; returns every problem found, not only the first. */
export function validatePlan(input: unknown, options: ValidateOptions = {}): PlanValidation {
  const problems = checkSize(input);
  const parsed = TeamPlanSchema.safeParse(input);
  if (parsed.success) {
    problems.push(
      // First: every later check sees the agent tasks whole.
      ...resolveRoles(parsed.data.tasks, parsed.data.agents),
      ...resolveHookRole(parsed.data.hooks, parsed.data.agents),
      ...checkScopes(parsed.data),
      ...checkGraph(parsed.data.tasks),
      ...checkActivityTasks(parsed.data, parsed.data.tasks),
      ...checkApprovers(parsed.data),
      ...checkOutputRefs(parsed.data.tasks, options.outputSchemaProblem),
      ...checkTeamTasks(parsed.data, (child) => validatePlan(child, options)),
    );
    if (problems.length === 0) problems.push(...checkPackedSize(parsed.data));
    if (options.knownKinds) problems.push(...checkKinds(parsed.data, options.knownKinds));
    if (options.commandsRestricted) problems.push(...checkPlanEnv(parsed.data, options.planEnv));
    if (options.agentClis) problems.push(...checkPlanCliArgs(parsed.data.tasks, options.agentClis));
    if (options.knownTools) problems.push(...checkAgentTools(parsed.data.tasks, options.knownTools));
    if (options.budgetFits) problems.push(...checkBudgetFits(parsed.data));
    return problems.length ? { ok: false, problems } : { ok: true, plan: parsed.data };
  }
  for (const issue of parsed.error.issues) {
    if (issue.code === 'unrecognized_keys')
      problems.push(...unknownFieldProblems(input, issue.path, issue.keys, formatPath));
    else problems.push({ path: formatPath(issue.path), code: 'schema', message: issue.message });
  }
  // A typo in one task's fields should not hide a typo in another's dependencies.
  const nodes = graphNodes(input);
  if (nodes) problems.push(...checkGraph(nodes));
  return { ok: false, problems };
}

/** The plan must fit Temporal's payload limit with room for the run's state beside it. */
function checkSize(input: unknown): PlanProblem[] {
  let json: string | undefined;
  try {
    json = JSON.stringify(input);
  } catch (err) {
    return [
      { path: '(plan)', code: 'not_json', message: `the plan is not plain JSON data: ${(err as Error).message}` },
    ];
  }
  const bytes = json === undefined ? 0 : utf8Bytes(json);
  if (bytes <= PLAN_LIMITS.maxPlanBytes) return [];
  return [
    {
      path: '(plan)',
      code: 'plan_too_large',
      message:
        `the plan is ${bytes} bytes of JSON, over the ${PLAN_LIMITS.maxPlanBytes}-byte bound ` +
        `(Temporal refuses payloads over ${TEMPORAL_PAYLOAD_LIMIT_BYTES} bytes, ` +
        `with room kept for the rest of the request); split it into several runs`,
    },
  ];
}

/** What the run carries of its plan when it continues as new must leave room for its state. */
function checkPackedSize(plan: TeamPlan): PlanProblem[] {
  const bytes = utf8Bytes(JSON.stringify(packPlan(plan)));
  if (bytes <= PLAN_LIMITS.maxPackedPlanBytes) return [];
  return [
    {
      path: '(plan)',
      code: 'plan_too_large',
      message:
        `the plan packs to ${bytes} bytes, over the ${PLAN_LIMITS.maxPackedPlanBytes}-byte ` +
        `bound on what a run carries of it when it continues as new ` +
        `(Temporal's payload limit is ${TEMPORAL_PAYLOAD_LIMIT_BYTES} bytes, and the run's ` +
        `state travels beside it); split it into several runs or share executors between tasks`,
    },
  ];
}

/**
 * Normalises every scope in place (`./docs//` is `docs`); `..` and absolute paths outside the workspace are problems.
 */
function checkScopes(plan: TeamPlan): PlanProblem[] {
  const problems: PlanProblem[] = [];
  plan.defaultScope?.forEach((scope, j) => {
    const check = normalizeScope(scope);
    if (check.ok) plan.defaultScope![j] = check.scope;
    else problems.push({ path: `defaultScope[${j}]`, code: 'invalid_scope', message: check.message });
  });
  plan.tasks.forEach((task, i) => {
    task.scope.forEach((scope, j) => {
      const check = normalizeScope(scope);
      if (check.ok) task.scope[j] = check.scope;
      else problems.push({ path: `tasks[${i}].scope[${j}]`, code: 'invalid_scope', message: check.message });
    });
  });
  return problems;
}

function checkKinds(plan: TeamPlan, knownKinds: Iterable<string>): PlanProblem[] {
  const custom = new Set(knownKinds);
  const index = new KeyIndex([...BUILTIN_EXECUTOR_KINDS, ...custom]);
  const problems: PlanProblem[] = [];
  plan.tasks.forEach((task, i) => {
    const kind = task.executor.kind;
    if (isBuiltinExecutorKind(kind) || custom.has(kind)) return;
    const guess = index.nearest(kind);
    problems.push({
      path: `tasks[${i}].executor.kind`,
      code: 'unknown_executor_kind',
      message:
        `unknown executor kind "${kind}"${guess ? ` (did you mean "${guess}"?)` : ''}: ` +
        `built in are ${BUILTIN_EXECUTOR_KINDS.join(', ')}` +
        (custom.size
          ? `; custom: ${[...custom].join(', ')}`
          : '; declare a custom kind with --kind or worker.customKinds in the config'),
    });
  });
  return problems;
}

/** A task as far as the graph checks need it; `key` is null when the task has no usable key. */
interface GraphNode {
  key: string | null;
  dependsOn: ReadonlyArray<unknown>;
}

/** The graph of a plan that failed its schema, read leniently; null when there is no task list to read. */
function graphNodes(input: unknown): GraphNode[] | null {
  const tasks = typeof input === 'object' && input !== null ? (input as { tasks?: unknown }).tasks : undefined;
  if (!Array.isArray(tasks) || tasks.length > PLAN_LIMITS.maxTasks) return null;
  return tasks.map((task: unknown) => {
    const fields = typeof task === 'object' && task !== null ? (task as { key?: unknown; dependsOn?: unknown }) : {};
    return {
      key: typeof fields.key === 'string' ? fields.key : null,
      dependsOn: Array.isArray(fields.dependsOn) ? fields.dependsOn : [],
    };
  });
}

function checkGraph(tasks: ReadonlyArray<GraphNode>): PlanProblem[] {
  const problems: PlanProblem[] = [];
  if (tasks.length === 0) {
    problems.push({ path: 'tasks', code: 'empty', message: 'a plan needs at least one task' });
    return problems;
  }
  const firstIndex = new Map<string, number>();
  tasks.forEach((task, i) => {
    if (task.key === null) return;
    const earlier = firstIndex.get(task.key);
    if (earlier !== undefined) {
      problems.push({
        path: `tasks[${i}].key`,
        code: 'duplicate_key',
        message: `duplicate task key "${task.key}" (first used at tasks[${earlier}])`,
      });
    } else {
      firstIndex.set(task.key, i);
    }
  });
  const known = new KeyIndex(firstIndex.keys());
  // The graph the cycle search walks: first definitions only, self-dependencies reported on their own.
  const edges = new Map<string, string[]>();
  tasks.forEach((task, i) => {
    const seen = new Set<string>();
    const deps: string[] = [];
    task.dependsOn.forEach((dep, j) => {
      if (typeof dep !== 'string') return;
      const path = `tasks[${i}].dependsOn[${j}]`;
      if (dep === task.key) {
        problems.push({ path, code: 'self_dependency', message: `task "${task.key}" depends on itself` });
      } else if (!firstIndex.has(dep)) {
        const guess = known.nearest(dep);
        problems.push({
          path,
          code: 'unknown_dependency',
          message: `unknown task "${dep}"${guess ? ` (did you mean "${guess}"?)` : ''}`,
        });
      } else if (seen.has(dep)) {
        problems.push({ path, code: 'duplicate_dependency', message: `"${dep}" is listed twice` });
      } else {
        deps.push(dep);
      }
      seen.add(dep);
    });
    if (task.key !== null && firstIndex.get(task.key) === i) edges.set(task.key, deps);
  });
  const cycle = findCycle([...edges].map(([key, dependsOn]) => ({ key, dependsOn })));
  if (cycle) {
    problems.push({
      path: `tasks[${firstIndex.get(cycle[0]) ?? 0}].dependsOn`,
      code: 'cycle',
      message: `dependency cycle: ${formatCycle(cycle)}`,
    });
  }
  return problems;
}

/**
 * Governance of `activity` tasks: no worker of teamrun's guards a foreign task queue, so the run
 * itself allows only the queues its plan lists in `activityQueues`.
 */
export function checkActivityTasks(
  plan: Pick<TeamPlan, 'activityQueues' | 'budget'>,
  tasks: ReadonlyArray<TaskSpec>,
  pathOf: (i: number) => string = (i) => `tasks[${i}]`,
): PlanProblem[] {
  const allowed = new Set(plan.activityQueues ?? []);
  const problems: PlanProblem[] = [];
  tasks.forEach((task, i) => {
    if (task.executor.kind !== 'activity') return;
    const queue = task.executor.taskQueue as string;
    if (!allowed.has(queue)) {
      const guess = nearest(queue, [...allowed]);
      problems.push({
        path: `${pathOf(i)}.executor.taskQueue`,
        code: 'activity_queue_not_allowed',
        message:
          `task queue "${queue}" is not in the plan's activityQueues` +
          (allowed.size ? ` (${[...allowed].map((q) => `"${q}"`).join(', ')})` : ' (none listed)') +
          (guess ? `; did you mean "${guess}"?` : ''),
      });
    }
    // A shared ledger's slot is renewed by teamrun's own worker while the attempt runs; a foreign worker cannot.
    if (plan.budget.ledger !== undefined) {
      problems.push({
        path: `${pathOf(i)}.executor`,
        code: 'activity_with_ledger',
        message:
          `an activity task cannot run under a shared ledger ` +
          `("${plan.budget.ledger}"): its worker cannot renew the ledger slot`,
      });
    }
  });
  return problems;
}

/**
 * An approval's `approvers` narrow `governance.operators`: an approver who is not an operator
 * could never decide it, so the plan says so up front.
 */
export function checkApprovers(plan: Pick<TeamPlan, 'governance' | 'tasks'>): PlanProblem[] {
  const operators = plan.governance?.operators;
  if (!operators) return [];
  const problems: PlanProblem[] = [];
  plan.tasks.forEach((task, i) => {
    if (task.executor.kind !== 'approval') return;
    const approvers = (task.executor.approvers ?? []) as string[];
    approvers.forEach((name, a) => {
      if (operators.includes(name)) return;
      problems.push({
        path: `tasks[${i}].executor.approvers[${a}]`,
        code: 'approver_not_operator',
        message:
          `approver "${name}" is not one of governance.operators ` +
          `(${operators.map((o) => `"${o}"`).join(', ')}): they could never decide this task`,
      });
    });
  });
  return problems;
}
