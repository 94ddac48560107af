import { z } from 'zod';
import { defineExecutor, ExecutorError } from 'teamrun/worker';

/**
 * A custom executor kind. Its zod schema describes the task's `executor` fields beside `kind`;
 * the worker parses the spec with it before `run` sees it, so `spec` is typed and checked.
 */
export const greet = defineExecutor(
  z
    .object({
      name: z.string().min(1),
      language: z.enum(['en', 'fr']).default('en'),
    })
    .strict(),
  async (spec, ctx) => {
    if (ctx.signal.aborted) throw new ExecutorError('cancelled before it started');
    const greeting = spec.language === 'fr' ? `bonjour ${spec.name}` : `hello ${spec.name}`;
    // Every side effect can carry the fencing token, so the resource refuses a stale writer.
    return {
      output: { greeting, fencingToken: ctx.fencingToken },
      usage: { inputTokens: spec.name.length, outputTokens: greeting.length },
    };
  },
);
