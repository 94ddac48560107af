import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { formatPath } from '../plan/validate';

export const BUILTIN_EXECUTORS = ['shell', 'http', 'llm', 'sleep', 'noop'] as const;

const PriceSchema = z
  .object({
    inputPerMTok: z.number().nonnegative(),
    outputPerMTok: z.number().nonnegative(),
    cachePerMTok: z.number().nonnegative().optional(),
  })
  .strict();
export type Price = z.infer<typeof PriceSchema>;

export const ScheduleConfigSchema = z
  .object({
    id: z.string().min(1),
    plan: z.string().min(1),
    cron: z.string().optional(),
    every: z.string().optional(),
    overlap: z.enum(['skip', 'buffer-one', 'buffer-all', 'cancel-other', 'allow-all']).default('skip'),
    paused: z.boolean().default(false),
    timezone: z.string().optional(),
  })
  .strict()
  .refine((s) => (s.cron === undefined) !== (s.every === undefined), { message: 'give exactly one of "cron" or "every"' });

export const ConfigSchema = z
  .object({
    connection: z
      .object({
        address: z.string().min(1).default('127.0.0.1:7233'),
        namespace: z.string().min(1).default('default'),
        taskQueue: z.string().min(1).default('teamrun'),
        // TLS for a remote cluster; an API key ($TEMPORAL_API_KEY) or a client certificate implies it.
        tls: z.boolean().default(false),
        clientCertPath: z.string().min(1).optional(),
        clientKeyPath: z.string().min(1).optional(),
      })
      .strict()
      .refine((c) => (c.clientCertPath === undefined) === (c.clientKeyPath === undefined), {
        message: 'give both "clientCertPath" and "clientKeyPath", or neither',
      })
      .default({ address: '127.0.0.1:7233', namespace: 'default', taskQueue: 'teamrun', tls: false }),
    devServer: z
      .object({
        ip: z.string().default('127.0.0.1'),
        port: z.number().int().min(1).max(65535).default(7233),
        uiPort: z.number().int().min(1).max(65535).default(8233),
        dbFile: z.string().default('.teamrun/dev.db'),
      })
      .strict()
      .default({ ip: '127.0.0.1', port: 7233, uiPort: 8233, dbFile: '.teamrun/dev.db' }),
    worker: z
      .object({
        maxConcurrentAttempts: z.number().int().min(1).max(10_000).default(64),
        // Only built-in kinds: a typo would otherwise silently disable one. Custom kinds are
        // enabled by passing them to createWorker in code.
        executors: z
          .array(z.enum(BUILTIN_EXECUTORS, { error: `must be one of ${BUILTIN_EXECUTORS.join(', ')}` }))
          .default([...BUILTIN_EXECUTORS]),
        shutdownGraceMs: z.number().int().nonnegative().default(2_000),
        shell: z
          .object({
            killGraceMs: z.number().int().nonnegative().default(2_000),
            outputTailBytes: z.number().int().min(256).default(4_096),
          })
          .strict()
          .default({ killGraceMs: 2_000, outputTailBytes: 4_096 }),
        llm: z
          .object({
            baseUrl: z.string().default('http://127.0.0.1:11434/v1'),
            apiKeyEnv: z.string().default('OPENAI_API_KEY'),
          })
          .strict()
          .default({ baseUrl: 'http://127.0.0.1:11434/v1', apiKeyEnv: 'OPENAI_API_KEY' }),
      })
      .strict()
      .default({
        maxConcurrentAttempts: 64,
        executors: [...BUILTIN_EXECUTORS],
        shutdownGraceMs: 2_000,
        shell: { killGraceMs: 2_000, outputTailBytes: 4_096 },
        llm: { baseUrl: 'http://127.0.0.1:11434/v1', apiKeyEnv: 'OPENAI_API_KEY' },
      }),
    prices: z.record(z.string(), PriceSchema).default({}),
    schedules: z.array(ScheduleConfigSchema).default([]),
  })
  .strict();

export type TeamrunConfig = z.infer<typeof ConfigSchema>;

export class ConfigError extends Error {
  readonly code = 'InvalidConfig';
}

/**
 * Reads `temporal.yaml` (or `file`, or `$TEAMRUN_CONFIG`); a missing default file means defaults.
 * `TEMPORAL_ADDRESS`, `TEMPORAL_NAMESPACE` and `TEAMRUN_TASK_QUEUE` override the file.
 */
export function loadConfig(file?: string, env: NodeJS.ProcessEnv = process.env): TeamrunConfig & { file: string | null } {
  const explicit = file ?? env.TEAMRUN_CONFIG;
  const chosen = explicit ?? path.resolve('temporal.yaml');
  let raw: unknown = {};
  if (existsSync(chosen)) {
    try {
      raw = parseYaml(readFileSync(chosen, 'utf8')) ?? {};
    } catch (err) {
      throw new ConfigError(`${chosen}: not valid YAML: ${(err as Error).message.split('\n')[0]}`);
    }
  } else if (explicit) {
    throw new ConfigError(`${chosen}: config file not found`);
  }
  const parsed = ConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  ${formatPath(i.path)}: ${i.message}`).join('\n');
    throw new ConfigError(`${chosen}: invalid config:\n${problems}`);
  }
  const config = parsed.data;
  if (env.TEMPORAL_ADDRESS) config.connection.address = env.TEMPORAL_ADDRESS;
  if (env.TEMPORAL_NAMESPACE) config.connection.namespace = env.TEMPORAL_NAMESPACE;
  if (env.TEAMRUN_TASK_QUEUE) config.connection.taskQueue = env.TEAMRUN_TASK_QUEUE;
  return { ...config, file: existsSync(chosen) ? chosen : null };
}
