/**
 * `modelRetry` of an `agent` or `llm` task: how long a model call that met a transient provider
 * error (5xx, 429, 408, a connection reset) is retried inside its attempt, as the same step, before
 * the attempt gives up and the task goes to adjudication (`TEAM_TASK_MODEL_UNAVAILABLE`).
 * docs/agents.md states the defaults; test/unit/docs-defaults.test.ts holds them to it.
 */
import { z } from 'zod';

export const MODEL_RETRY_LIMITS = {
  /** How long one call is retried in all, by default: a provider's outage of minutes pauses the team. */
  defaultMaxElapsedMs: 10 * 60_000,
  /** The most a plan may ask for. */
  maxElapsedMs: 24 * 3600_000,
  defaultInitialIntervalMs: 1_000,
  defaultMaxIntervalMs: 60_000,
  /** The longest single wait, whether backoff or the provider's `Retry-After`. */
  maxIntervalMs: 15 * 60_000,
  defaultBackoffCoefficient: 2,
} as const;

export const ModelRetrySchema = z
  .object({
    /** How long a call is retried in all (0: a transient error goes to adjudication at once). */
    maxElapsedMs: z.number().int().min(0).max(MODEL_RETRY_LIMITS.maxElapsedMs).optional(),
    initialIntervalMs: z.number().int().min(1).max(MODEL_RETRY_LIMITS.maxIntervalMs).optional(),
    /** The longest wait between two tries; a `Retry-After` is honoured up to it. */
    maxIntervalMs: z.number().int().min(1).max(MODEL_RETRY_LIMITS.maxIntervalMs).optional(),
    backoffCoefficient: z.number().min(1).max(10).optional(),
  })
  .strict()
  .refine((r) => (r.initialIntervalMs ?? 0) <= (r.maxIntervalMs ?? MODEL_RETRY_LIMITS.maxIntervalMs), {
    message: 'initialIntervalMs must not be more than maxIntervalMs',
  });
export type ModelRetrySpec = z.infer<typeof ModelRetrySchema>;

/** The policy with every default filled in. */
export type ModelRetryPolicy = Required<ModelRetrySpec>;

export function modelRetryPolicy(spec: ModelRetrySpec | undefined): ModelRetryPolicy {
  const maxIntervalMs = spec?.maxIntervalMs ?? MODEL_RETRY_LIMITS.defaultMaxIntervalMs;
  return {
    maxElapsedMs: spec?.maxElapsedMs ?? MODEL_RETRY_LIMITS.defaultMaxElapsedMs,
    initialIntervalMs: Math.min(spec?.initialIntervalMs ?? MODEL_RETRY_LIMITS.defaultInitialIntervalMs, maxIntervalMs),
    maxIntervalMs,
    backoffCoefficient: spec?.backoffCoefficient ?? MODEL_RETRY_LIMITS.defaultBackoffCoefficient,
  };
}
