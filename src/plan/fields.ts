/** Field schemas more than one executor kind's schema uses. Imports nothing from the plan's schema. */
import { z } from 'zod';

/** Temporal's timers and timeouts hold at most this many milliseconds (a signed 32-bit integer). */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

export const durationMs = z
  .number()
  .int()
  .nonnegative()
  .max(MAX_TIMEOUT_MS, `at most ${MAX_TIMEOUT_MS} ms (2^31-1, about 24.8 days): timers fire at once past it`);

/**
 * How long an attempt may go without a step (a model or tool step, a CLI's stream event, a shell's output)
 * before it is stopped as stalled: at least a second (the watch looks a few times a second), at most Temporal's bound.
 */
export const StallAfterMsSchema = durationMs.min(1_000, 'at least 1000 ms: the watch looks a few times a second');

export const ChatMessageSchema = z
  .object({ role: z.enum(['system', 'user', 'assistant']), content: z.string() })
  .strict();

export const onePromptOrMessages = [
  (e: { prompt?: string; messages?: unknown[] }) => (e.prompt === undefined) !== (e.messages === undefined),
  { message: 'give exactly one of "prompt" or "messages"' },
] as const;
