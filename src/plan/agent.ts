/**
 * The `agent` executor kind's spec (CONTRACT.md "Further additions"): a tool-using loop over the
 * worker's OpenAI-compatible endpoint. The plan only names tools; the worker defines them.
 */
import { z } from 'zod';
import { ChatMessageSchema, durationMs, onePromptOrMessages } from './fields';
import { nearest } from './graph';
import { ModelRetrySchema } from './model-retry';
import type { PlanProblem } from './problem';

/** Every bound of an agent's spec, named once (docs/agents.md lists them). */
export const AGENT_LIMITS = {
  /** Model calls of one attempt, at most. */
  maxTurns: 200,
  defaultMaxTurns: 30,
  /** Tool calls of one attempt, at most. */
  maxToolCalls: 1_000,
  defaultMaxToolCalls: 100,
  /** Names (or `<server>__*` patterns) one task may list. */
  maxTools: 64,
  instructionsChars: 64 * 1024,
  /** Output tokens the loop reserves for a call that does not say (`maxTokens`). */
  defaultMaxTokens: 1_024,
  /** Roles of a plan's `agents`. */
  maxRoles: 32,
} as const;

/** teamrun's own tools for agents; `add_tasks` only for a task with `allowSpawn`. */
export const TEAMRUN_TOOLS = [
  'teamrun__send_message',
  'teamrun__read_inbox',
  'teamrun__add_tasks',
  'teamrun__set_output',
] as const;
export type TeamrunToolName = (typeof TEAMRUN_TOOLS)[number];

/** OpenAI function names: letters, digits, `_` and `-`, at most 64; here `<server>__<tool>` or `<server>__*`. */
const TOOL_NAME = /^[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*__(?:\*|[A-Za-z0-9_-]+)$/;

const ToolNameSchema = z
  .string()
  .max(64, 'a tool name is at most 64 characters (an OpenAI function name)')
  .regex(TOOL_NAME, 'a tool is named "<server>__<tool>" or "<server>__*" (letters, digits, "_" and "-")')
  .superRefine((name, ctx) => {
    if (!name.startsWith('teamrun__') || name === 'teamrun__*' || (TEAMRUN_TOOLS as readonly string[]).includes(name))
      return;
    const near = nearest(name, TEAMRUN_TOOLS);
    ctx.addIssue({
      code: 'custom',
      message: `unknown teamrun tool "${name}"${near ? ` (did you mean "${near}"?)` : ''}: ${TEAMRUN_TOOLS.join(', ')}`,
    });
  });

/** A role's name (`agents.<name>`): it also names the role's delegate tool, `delegate_to_<name>`. */
export const RoleNameSchema = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_-]{0,39}$/, 'a role name is 1..40 chars of [A-Za-z0-9_-], starting with a letter');

/** The fields an agent task and a role (`agents.<name>`) share; a task's own win over its role's. */
const agentFields = {
  model: z.string().min(1).max(200).optional(),
  /** The system message, before the prompt or messages. */
  instructions: z.string().max(AGENT_LIMITS.instructionsChars).optional().describe('the system message'),
  tools: z
    .array(ToolNameSchema)
    .max(AGENT_LIMITS.maxTools)
    .optional()
    .describe('"<server>__<tool>" or "<server>__*": MCP tools of the worker, teamrun__* its own'),
  maxTurns: z.number().int().min(1).max(AGENT_LIMITS.maxTurns).optional(),
  maxToolCalls: z.number().int().min(0).max(AGENT_LIMITS.maxToolCalls).optional(),
  /** Output tokens of one model call: sent as `max_tokens` and reserved before the call. */
  maxTokens: z.number().int().min(1).max(1_000_000).optional(),
  turnTimeoutMs: durationMs.min(1).optional(),
  toolTimeoutMs: durationMs.min(1).optional(),
  /** How a model call that met a provider's transient error is retried inside the attempt (plan/model-retry.ts). */
  modelRetry: ModelRetrySchema.optional(),
  /** Roles a task with `allowSpawn` may delegate to (`delegate_to_<role>` tools); default every role of the plan. */
  delegates: z.array(RoleNameSchema).max(AGENT_LIMITS.maxRoles).optional(),
};

/** One role of a plan's `agents`: what its tasks share, told once. */
export const AgentRoleSchema = z
  .object({
    ...agentFields,
    model: z.string().min(1).max(200),
    /** What the role does, for the planner: its delegate tool's description. */
    description: z.string().max(500).optional(),
  })
  .strict();
export type AgentRole = z.infer<typeof AgentRoleSchema>;

/** An agent task names its model, or a role that names one. */
export const modelOrRole = [
  (spec: { model?: string; role?: string }) => spec.model !== undefined || spec.role !== undefined,
  {
    message: 'an agent needs a "model", or a "role" of the plan\'s agents that names one',
    path: ['model'] as string[],
  },
] as const;

export const AgentSpecSchema = z
  .object({
    ...agentFields,
    /** A role of the plan's `agents`: its fields, under the task's own (src/plan/roles.ts). */
    role: RoleNameSchema.optional().describe("a role of the plan's agents: its fields under this task's own"),
    prompt: z.string().optional().describe('the task, to the agent; {{outputs.<key>}} reads a dependency'),
    messages: z.array(ChatMessageSchema).min(1).optional(),
  })
  .strict()
  .refine(...onePromptOrMessages)
  .refine(...modelOrRole);
export type AgentSpec = z.infer<typeof AgentSpecSchema>;

/** The tools a worker offers, as far as known: its MCP servers (`worker.mcpServers`) and custom tools by name. */
export interface KnownTools {
  servers: Iterable<string>;
  custom?: Iterable<string>;
}

/**
 * Each agent task's tools checked against the tools a worker is known to offer: a server it does not have is a
 * problem naming the task, the tool and the likely server. A tool inside a known server is checked when the
 * attempt starts it (listing its tools means starting it).
 */
export function checkAgentTools(
  tasks: ReadonlyArray<{ key: string; executor: { kind: string; tools?: string[] } }>,
  known: KnownTools,
): PlanProblem[] {
  const custom = new Set(known.custom ?? []);
  const servers = new Set([...known.servers, 'teamrun']);
  for (const name of custom) servers.add(name.slice(0, name.indexOf('__')));
  const problems: PlanProblem[] = [];
  tasks.forEach((task, i) => {
    if (task.executor.kind !== 'agent') return;
    (task.executor.tools ?? []).forEach((tool, j) => {
      const server = tool.slice(0, tool.indexOf('__'));
      if (servers.has(server)) return;
      const guess = nearest(server, [...servers]);
      problems.push({
        path: `tasks[${i}].executor.tools[${j}]`,
        code: 'unknown_tool',
        message:
          `task "${task.key}": unknown tool "${tool}": the worker has no MCP server "${server}"` +
          `${guess ? ` (did you mean "${guess}__${tool.slice(server.length + 2)}"?)` : ''}; ` +
          `its servers: ${[...servers].join(', ')} (worker.mcpServers; a custom tool: --tool ${tool})`,
      });
    });
  });
  return problems;
}
