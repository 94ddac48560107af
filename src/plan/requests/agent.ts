/**
 * The agent messages' payloads: `steerTask` (CONTRACT "Further additions") and the worker's own
 * `agentSteps` signal, which carries an agent attempt's steps to its run's event log.
 */
import { z } from 'zod';
import { AttemptProofSchema } from './caller';
import { MESSAGE_LIMITS } from './control';

export const STEER_LIMITS = {
  /** A steer's text, in UTF-8 bytes. */
  textBytes: 8 * 1024,
} as const;

export const SteerRequestSchema = z.object({
  key: z.string().min(1).max(128),
  // Characters bound the parse; bytes (what a payload weighs) are checked by the run's rule.
  text: z.string().min(1).max(STEER_LIMITS.textBytes),
  fencingToken: z.union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)]).optional(),
  requestId: z.string().min(1).max(MESSAGE_LIMITS.idChars).optional(),
  actor: z.string().min(1).max(MESSAGE_LIMITS.idChars).optional(),
});
export type SteerRequest = z.infer<typeof SteerRequestSchema>;

export const STEPS_LIMITS = {
  /** Steps in one `agentSteps` signal (the worker batches them). */
  perSignal: 50,
  toolChars: 64,
  toolsPerTurn: 64,
} as const;

const count = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const toolName = z.string().max(STEPS_LIMITS.toolChars);

export const AgentStepSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('agent:turn'),
    turn: count,
    inputTokens: count,
    outputTokens: count,
    tools: z.array(toolName).max(STEPS_LIMITS.toolsPerTurn),
  }),
  z.object({ type: z.literal('agent:tool'), turn: count, tool: toolName, ms: count, ok: z.boolean() }),
]);

/** A hash chain's link or anchor (src/agent/chain.ts): 32 bytes as lowercase hex. */
export const CHAIN_LINK = /^[0-9a-f]{64}$/;
const chainValue = z.string().regex(CHAIN_LINK);

/**
 * Proven by the worker's gateway (src/team/agents.ts): an attempt's first signal carries its hash
 * chain's anchor and the gateway's `attempt` proof, which the run confirms with that worker; every
 * later one the chain's next link.
 */
export const AgentStepsSchema = z.object({
  key: z.string().min(1).max(128),
  fencingToken: count,
  steps: z.array(AgentStepSchema).max(STEPS_LIMITS.perSignal),
  anchor: chainValue.optional(),
  attempt: AttemptProofSchema.optional(),
  link: chainValue.optional(),
});
export type AgentSteps = z.infer<typeof AgentStepsSchema>;
