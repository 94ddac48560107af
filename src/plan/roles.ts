/**
 * Roles: a plan's `agents` declare an agent once (model, instructions, tools, bounds) and a task names it
 * (`executor: { kind: agent, role: writer, prompt }`). Resolution writes the role's fields into each task that
 * names one, under the task's own, so the run and its workers see whole agent specs; the same holds for tasks a
 * run adds (a planner's `delegate_to_<role>` calls). Pure: the workflow runs it.
 */
import { nearest } from './graph';
import type { AgentRole } from './agent';
import type { PlanProblem } from './problem';

/** A delegate tool's name for a role. */
export const delegateTool = (role: string) => `delegate_to_${role}`;

interface RoleTask {
  key: string;
  allowSpawn?: boolean;
  executor: { kind: string; [field: string]: unknown };
}

/**
 * Writes each named role's fields into its tasks' executors (the task's own fields win), and fills a spawning agent
 * task's `delegates` with every role when it names none. Changes the tasks in place; returns a problem per unknown
 * role or delegate, with a did-you-mean, at `<prefix>[i].executor.role`.
 */
export function resolveRoles(
  tasks: ReadonlyArray<RoleTask>,
  agents: Readonly<Record<string, AgentRole>> | undefined,
  prefix = 'tasks',
): PlanProblem[] {
  const problems: PlanProblem[] = [];
  const names = Object.keys(agents ?? {});
  const unknown = (name: string, path: string, what: string) => {
    const guess = nearest(name, names);
    problems.push({
      path,
      code: 'unknown_role',
      message:
        `${what} "${name}" is not a role of the plan's agents${guess ? ` (did you mean "${guess}"?)` : ''}` +
        `; its roles: ${names.join(', ') || 'none (declare them under "agents")'}`,
    });
  };
  tasks.forEach((task, i) => {
    const executor = task.executor;
    if (executor.kind !== 'agent') return;
    const path = `${prefix}[${i}].executor`;
    const role = typeof executor.role === 'string' ? executor.role : undefined;
    if (role !== undefined) {
      const fields = agents && Object.hasOwn(agents, role) ? agents[role] : undefined;
      if (!fields) unknown(role, `${path}.role`, 'role');
      else {
        const { description: _description, ...shared } = fields;
        for (const [field, value] of Object.entries(shared)) if (executor[field] === undefined) executor[field] = value;
      }
    }
    const delegates = Array.isArray(executor.delegates) ? (executor.delegates as string[]) : undefined;
    delegates?.forEach((name, j) => {
      if (!agents || !Object.hasOwn(agents, name)) unknown(name, `${path}.delegates[${j}]`, 'delegate');
    });
    if (task.allowSpawn && delegates === undefined && names.length) executor.delegates = [...names];
  });
  return problems;
}

/** The `teammateIdle` hook's executor names a role as a task's may (`hooks.teammateIdle.executor.role`). */
export function resolveHookRole(
  hooks: { teammateIdle?: { executor: RoleTask['executor'] } } | undefined,
  agents: Readonly<Record<string, AgentRole>> | undefined,
): PlanProblem[] {
  const executor = hooks?.teammateIdle?.executor;
  if (!executor) return [];
  return resolveRoles([{ key: 'teammateIdle', executor }], agents, 'hooks.teammateIdle').map((p) => ({
    ...p,
    path: p.path.replace('hooks.teammateIdle[0]', 'hooks.teammateIdle'),
  }));
}
