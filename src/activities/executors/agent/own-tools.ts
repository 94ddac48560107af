/**
 * teamrun's own tools for agents (CONTRACT: `teamrun__send_message`, `teamrun__read_inbox`,
 * `teamrun__add_tasks` with `allowSpawn`, `teamrun__set_output`). The first three go through the
 * attempt gateway, as a shell task's `teamrun send`, `inbox` and `add-tasks` do; set_output only
 * records its value in the transcript.
 */
import type { ReadInboxAnswer } from '../../../contract';
import { TEAMRUN_TOOLS, type TeamrunToolName } from '../../../plan/agent';
import type { ToolCallResult, ToolSpec } from '../../tools/types';
import { GatewayRefusal, type AgentGateway } from './gateway';
import { addTasksToolSchema, taskProblems } from '../../../plan/task-tool';
import { outputProblems } from '../../output-check';
import { delegateSpec, refused } from './delegate';

const SPECS: Record<TeamrunToolName, Omit<ToolSpec, 'name'>> = {
  teamrun__send_message: {
    description: 'Send a message to a teammate: a task key, teammate-<n>, "coordinator" or "*" for everyone.',
    parameters: {
      type: 'object',
      properties: { to: { type: 'string' }, subject: { type: 'string' }, body: { type: 'string' } },
      required: ['to', 'body'],
    },
    idempotent: false,
  },
  teamrun__read_inbox: {
    description: 'Read the messages teammates sent to this task since the last read.',
    parameters: { type: 'object', properties: {} },
    // Reading advances the inbox's cursor: a read cut by a crash may have taken messages.
    idempotent: false,
  },
  teamrun__add_tasks: {
    description:
      'Add tasks to the run. Each task: key (unique), dependsOn (keys it waits for), executor (what runs it: one of ' +
      'the kinds below, e.g. { kind: "agent", role, prompt } or { kind: "shell", command }), outputSchema (a JSON ' +
      'Schema its output must match). A refused task comes back as the error, with what to fix.',
    // The real schema of a task, from the plan's zod schemas (src/plan/task-tool.ts), bounded.
    get parameters() {
      return addTasksToolSchema();
    },
    // Its request id comes from the call's id: the run answers a repeat with the first outcome.
    idempotent: true,
  },
  teamrun__set_output: {
    description: "Set this task's output (any JSON value) for the tasks that depend on it; the last call wins.",
    parameters: { type: 'object', properties: { output: {} }, required: ['output'] },
    idempotent: true,
  },
};

/**
 * The own tools a task may use: those it lists (or `teamrun__*`), add_tasks only with `allowSpawn`; with
 * `allowSpawn`, one `delegate_to_<role>` per role it may delegate to (`delegates`, resolved by the plan).
 */
export function ownTools(
  listed: readonly string[],
  allowSpawn: boolean,
  delegates: readonly string[] = [],
): ToolSpec[] {
  const all = listed.includes('teamrun__*');
  const own = TEAMRUN_TOOLS.filter(
    (name) => (all || listed.includes(name)) && (name !== 'teamrun__add_tasks' || allowSpawn),
  ).map((name) => ({ name, ...SPECS[name] }));
  return allowSpawn ? [...own, ...delegates.map(delegateSpec)] : own;
}

export function isOwnTool(name: string): name is TeamrunToolName {
  return (TEAMRUN_TOOLS as readonly string[]).includes(name);
}

/** Runs one own tool; a refusal from the run is the tool's error, for the model to read. */
export async function callOwnTool(
  name: TeamrunToolName,
  args: Record<string, unknown>,
  gateway: AgentGateway,
  callKey: string,
  outputSchema?: Record<string, unknown>,
  mailHeld = 0,
): Promise<ToolCallResult> {
  try {
    switch (name) {
      case 'teamrun__send_message': {
        if (typeof args.to !== 'string' || args.body === undefined)
          return { ok: false, error: 'send_message takes { to: string, subject?: string, body }' };
        const answer = await gateway.post('sendMessage', { to: args.to, subject: args.subject, body: args.body });
        return { ok: true, content: JSON.stringify(answer) };
      }
      case 'teamrun__read_inbox': {
        // What already joined the conversation (mail read by peek before a model call: `mailHeld`, the last id it
        // holds) is not handed twice; the read moves the cursor past it all the same.
        const answer = (await gateway.post('readInbox', {})) as ReadInboxAnswer;
        const messages = (answer.messages ?? []).filter((m) => m.id > mailHeld);
        return { ok: true, content: JSON.stringify({ ...answer, messages }) };
      }
      case 'teamrun__add_tasks': {
        const problems = taskProblems(args.tasks);
        if (problems.length) return { ok: false, error: refused(problems) };
        const answer = await gateway.post('addTasks', { tasks: args.tasks, requestId: callKey });
        return { ok: true, content: JSON.stringify(answer) };
      }
      case 'teamrun__set_output': {
        if (!Object.hasOwn(args, 'output'))
          return { ok: false, error: 'set_output takes { output: <any JSON value> }' };
        const problems = outputSchema ? outputProblems(outputSchema, args.output) : [];
        return problems.length
          ? {
              ok: false,
              error: `the output does not match the task's outputSchema: ${problems.join('; ')}; set it again`,
            }
          : { ok: true, content: 'output set' };
      }
    }
  } catch (err) {
    if (err instanceof GatewayRefusal) return { ok: false, error: err.message };
    throw err;
  }
}
