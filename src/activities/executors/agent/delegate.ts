/**
 * `delegate_to_<role>`: a planner's typed way to give work to a role of the plan's `agents`. One call adds one agent
 * task naming the role (`{ key, prompt, dependsOn?, outputSchema? }`), through the same `addTasks` as
 * `teamrun__add_tasks`: same request id from the call, same fencing, limits and governance in the run.
 */
import { OUTPUT_SCHEMA_LIMITS } from '../../../plan/output-schema';
import { PLAN_LIMITS } from '../../../plan/limits';
import { delegateTool } from '../../../plan/roles';
import { taskProblems } from '../../../plan/task-tool';
import type { ToolCallResult, ToolSpec } from '../../tools/types';
import { formatProblems, type PlanProblem } from '../../../plan/validate';
import { GatewayRefusal, type AgentGateway } from './gateway';

/** Problems of tasks a model sent, as the tool's error it reads and fixes. */
export const refused = (problems: PlanProblem[]) =>
  `the tasks were not added; fix these and call again:\n${formatProblems(problems.slice(0, 20))}`;

const PREFIX = delegateTool('');

export function delegateSpec(role: string): ToolSpec {
  return {
    name: delegateTool(role),
    description:
      `Give a task to the "${role}" agent (the plan's role: its model, instructions and tools). It starts once ` +
      'the tasks in dependsOn have succeeded; their outputs are in its prompt as {{outputs.<key>}}.',
    parameters: {
      type: 'object',
      properties: {
        key: {
          type: 'string',
          pattern: '^[A-Za-z0-9._:-]{1,128}$',
          description: "the new task's key, unique in the run",
        },
        prompt: { type: 'string', maxLength: 64 * 1024, description: `what the ${role} is to do` },
        dependsOn: {
          type: 'array',
          items: { type: 'string' },
          maxItems: PLAN_LIMITS.maxDependsOn,
          description: 'keys of tasks that must succeed first',
        },
        outputSchema: {
          type: 'object',
          description: `a JSON Schema the task's output must match (at most ${OUTPUT_SCHEMA_LIMITS.bytes} bytes)`,
        },
      },
      required: ['key', 'prompt'],
      additionalProperties: false,
    },
    // Its request id comes from the call's id: the run answers a repeat with the first outcome.
    idempotent: true,
  };
}

export const isDelegateTool = (name: string) => name.startsWith(PREFIX) && name.length > PREFIX.length;

/** One delegation: the task it adds, checked here first so a model reads every problem at once. */
export async function delegate(
  name: string,
  args: Record<string, unknown>,
  gateway: AgentGateway,
  callKey: string,
): Promise<ToolCallResult> {
  const { key, prompt, dependsOn, outputSchema, ...rest } = args;
  const extra = Object.keys(rest);
  if (extra.length)
    return { ok: false, error: `${name} takes { key, prompt, dependsOn?, outputSchema? }, not ${extra.join(', ')}` };
  const task = {
    key,
    ...(dependsOn === undefined ? {} : { dependsOn }),
    ...(outputSchema === undefined ? {} : { outputSchema }),
    executor: { kind: 'agent', role: name.slice(PREFIX.length), prompt },
  };
  const problems = taskProblems([task]);
  if (problems.length) return { ok: false, error: refused(problems) };
  try {
    const answer = await gateway.post('addTasks', { tasks: [task], requestId: callKey });
    return { ok: true, content: JSON.stringify(answer) };
  } catch (err) {
    if (err instanceof GatewayRefusal) return { ok: false, error: err.message };
    throw err;
  }
}
