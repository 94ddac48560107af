/**
 * `worker.models`: the models this worker's agent and llm tasks may name (`model:`), each through its
 * provider's AI SDK package. The key is read from the worker's environment by the name `apiKeyEnv` gives,
 * never written in the config, so never in a run's history.
 */
import { z } from 'zod';

export const MODEL_PROVIDERS = ['anthropic', 'openai', 'google', 'openai-compatible'] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

export const MODELS_CONFIG_LIMITS = { models: 64 } as const;

/** A model's name as a task writes it (`model:`): also the key of its row in `prices:`. */
const MODEL_NAME = /^[A-Za-z0-9][A-Za-z0-9._:/@-]{0,199}$/;

export const ModelConfigSchema = z
  .object({
    provider: z.enum(MODEL_PROVIDERS),
    /** The provider's id for the model (`claude-sonnet-4-5`, `gpt-4.1`, `gemini-2.5-flash`). */
    model: z.string().min(1).max(200),
    /** The provider's API root (`https://.../v1`); by default its package's own. Required for openai-compatible. */
    baseUrl: z.string().url().max(2_000).optional(),
    /** The worker variable holding the key (none for a local server that wants none). */
    apiKeyEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
      .max(200)
      .optional(),
  })
  .strict()
  .refine((m) => m.provider !== 'openai-compatible' || m.baseUrl !== undefined, {
    message: 'an openai-compatible model needs its baseUrl',
    path: ['baseUrl'],
  });
export type ModelConfig = z.infer<typeof ModelConfigSchema>;

export const ModelsConfigSchema = z.record(z.string(), ModelConfigSchema).superRefine((models, ctx) => {
  const names = Object.keys(models);
  if (names.length > MODELS_CONFIG_LIMITS.models)
    ctx.addIssue({ code: 'custom', message: `at most ${MODELS_CONFIG_LIMITS.models} models (${names.length} given)` });
  for (const name of names.filter((n) => !MODEL_NAME.test(n)))
    ctx.addIssue({ code: 'custom', message: 'a model name is letters, digits and ._:/@- (200 at most)', path: [name] });
});
