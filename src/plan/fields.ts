/** Field schemas more than one executor kind's schema uses. Imports nothing from the plan's schema. */
import { z } from 'zod';

/** Temporal's timers and timeouts hold at most this many milliseconds (a signed 32-bit integer). */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

export const durationMs = z
  .number()
  .int()
  .nonnegative()
  .max(MAX_TIMEOUT_MS, `at most ${MAX_TIMEOUT_MS} ms (2^31-1, about 24.8 days): timers fire at once past it`);

export const ChatMessageSchema = z
  .object({ role: z.enum(['system', 'user', 'assistant']), content: z.string() })
  .strict();

export const onePromptOrMessages = [
  (e: { prompt?: string; messages?: unknown[] }) => (e.prompt === undefined) !== (e.messages === undefined),
  { message: 'give exactly one of "prompt" or "messages"' },
] as const;
