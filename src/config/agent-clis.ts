import { z } from 'zod';
import { AllowArgsSchema } from '../plan/agent-cli-args';
import { AGENT_CLIS } from '../plan/schema';

const variableName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a variable name');

/**
 * One coding-agent CLI as the worker's operator sets it up (`worker.agentClis.<cli>`): its binary
 * (never the plan's), the extra arguments a plan may pass, the variables it gets beyond a shell
 * task's, and whether each attempt's `git worktree` is kept after the attempt.
 */
export const AgentCliConfigSchema = z
  .object({
    command: z.string().min(1).max(4_096),
    // Flags a plan may pass, each with the values it may take (plan/agent-cli-args.ts).
    allowArgs: AllowArgsSchema,
    // A literal, or a variable of the worker's own environment (redacted from all the attempt reports).
    env: z
      .record(variableName, z.union([z.string().max(64 * 1024), z.object({ fromWorkerEnv: variableName }).strict()]))
      .default({}),
    keepWorktrees: z.boolean().default(false),
  })
  .strict();
export type AgentCliConfig = z.infer<typeof AgentCliConfigSchema>;

export const AgentClisConfigSchema = z
  .partialRecord(z.enum(AGENT_CLIS, { error: `must be one of ${AGENT_CLIS.join(', ')}` }), AgentCliConfigSchema)
  .default({});
