import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { CodecConfigSchema } from '../codec/config';
import { AgentClisConfigSchema } from './agent-clis';
import { SandboxConfigSchema } from './sandbox';
import { DEFAULT_PLAN_ENV } from '../plan/env-rules';
import { TelemetryConfigSchema } from '../telemetry/config';
import { WORKER_EXECUTOR_KINDS } from '../plan/schema';
import { formatPath } from '../plan/validate';
import { temporalProfile } from './profile';
import { ConfigError } from './errors';
import { McpServersSchema } from './mcp-servers';
import { ModelsConfigSchema } from './models';

/** The kinds `worker.executors` may enable (the built-in kinds a worker runs). */
export const BUILTIN_EXECUTORS = WORKER_EXECUTOR_KINDS;

const PriceSchema = z
  .object({
    inputPerMTok: z.number().nonnegative(),
    outputPerMTok: z.number().nonnegative(),
    /** Cached input read (a prompt-cache hit); by default the input rate. */
    cachePerMTok: z.number().nonnegative().optional(),
    /** Cached input written (Anthropic's cache creation); by default the input rate. */
    cacheWritePerMTok: z.number().nonnegative().optional(),
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
  .refine((s) => (s.cron === undefined) !== (s.every === undefined), {
    message: 'give exactly one of "cron" or "every"',
  });

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
        // Custom kinds this project's workers register in code: `teamrun validate` knows them.
        customKinds: z.array(z.string().regex(/^[A-Za-z0-9._-]{1,64}$/)).default([]),
        shutdownGraceMs: z.number().int().nonnegative().default(2_000),
        // How long a run's next workflow task waits for this worker (which has
        // the run cached) before any worker may take it: docs/lease-pace.md.
        stickyScheduleToStartMs: z.number().int().min(100).max(60_000).default(2_500),
        shell: z
          .object({
            killGraceMs: z.number().int().nonnegative().default(2_000),
            // The end of stdout/stderr a failure message quotes (after redaction).
            outputTailBytes: z
              .number()
              .int()
              .min(256)
              .max(1024 * 1024)
              .default(4_096),
            // The end of stdout and of stderr each attempt keeps in history (`teamrun logs`).
            logTailBytes: z
              .number()
              .int()
              .min(0)
              .max(64 * 1024)
              .default(4_096),
            // A `::teamrun-*::` line longer than this is dropped, not parsed (and fails the task).
            maxLineBytes: z
              .number()
              .int()
              .min(1024)
              .max(16 * 1024 * 1024)
              .default(256 * 1024),
            // Dependency outputs up to this size are also given inline in $TEAMRUN_INPUTS.
            inlineInputsMaxBytes: z
              .number()
              .int()
              .min(0)
              .max(1024 * 1024)
              .default(32 * 1024),
            // Worker variables (names or globs: AWS_*) passed to every task, beyond PATH, HOME, LANG, LC_*, TMPDIR, TZ.
            passEnv: z.array(z.string().min(1)).default([]),
            // Worker variables a plan may take by name (`env: { X: { fromWorkerEnv: NAME } }`); always redacted.
            secretEnv: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a variable name')).default([]),
            // Give tasks TEMPORAL_ADDRESS and TEMPORAL_NAMESPACE (and TEMPORAL_* from passEnv): off, a task
            // reaches its run only through the attempt gateway (docs/security.md).
            temporalEnv: z.boolean().default(false),
            // Under allowCommands, the names (or globs) a plan's env may set (plan/env-rules.ts); denied names never.
            planEnv: z
              .array(z.string().min(1).max(200))
              .max(256)
              .default([...DEFAULT_PLAN_ENV]),
            // When set, a command runs only if one pattern matches all of it (`/regex/` or a glob where * is any text).
            allowCommands: z.array(z.string().min(1)).optional(),
            // When set, a task's cwd must resolve inside this directory (relative cwds start here).
            cwdRoot: z.string().min(1).optional(),
            // A cgroup (v2) per attempt when the worker may create one (auto),
            // never (off), or fail the attempt without one (required).
            cgroup: z.enum(['auto', 'off', 'required']).default('auto'),
          })
          .strict()
          .prefault({}),
        http: z
          .object({
            // A response body over this is not read on: the task fails, non-retryably.
            maxBodyBytes: z
              .number()
              .int()
              .min(1024)
              .max(1024 * 1024 * 1024)
              .default(1024 * 1024),
            // Destinations reachable although loopback, private or link-local: host, host:port, IP, IP:port or CIDR.
            allowHosts: z.array(z.string().min(1)).default([]),
            // Whether public addresses are reachable without an allowHosts entry.
            allowPublic: z.boolean().default(true),
            maxRedirects: z.number().int().min(0).max(20).default(5),
          })
          .strict()
          .prefault({}),
        llm: z
          .object({
            baseUrl: z.string().default('http://127.0.0.1:11434/v1'),
            apiKeyEnv: z.string().default('OPENAI_API_KEY'),
          })
          .strict()
          .prefault({}),
        // Models by the name a task gives (`model:`), each through its provider's AI SDK package (docs/agents.md).
        models: ModelsConfigSchema.default({}),
        // Shell and agent-cli attempts and MCP stdio servers under bubblewrap (docs/security.md).
        sandbox: SandboxConfigSchema,
        // The coding-agent CLIs `agent-cli` tasks may run on this worker (docs/agent-clis.md).
        agentClis: AgentClisConfigSchema,
        // MCP servers whose tools this worker's agents may call (`<server>__<tool>`): docs/configuration.md.
        mcpServers: McpServersSchema.default({}),
        // Team runs one attempt may start through this worker's gateway (docs/teams.md, a coordinator's runs).
        maxRunsPerAttempt: z.number().int().min(0).max(100).default(10),
        // Worker variables whose values are redacted from everything reported, beyond the ones the worker knows.
        redact: z
          .object({ env: z.array(z.string().min(1)).default([]) })
          .strict()
          .prefault({}),
      })
      .strict()
      .prefault({}),
    prices: z.record(z.string(), PriceSchema).default({}),
    schedules: z.array(ScheduleConfigSchema).default([]),
    // Payload encryption (src/codec): key ids and where each key is read from, never key values.
    codec: CodecConfigSchema.optional(),
    // `teamrun mcp`: who the server acts as (checked by each run against governance.operators), never the caller's.
    mcp: z
      .object({
        actor: z.string().min(1).max(200).optional(),
        // No tool that changes anything (start_run, interrupt_task, adjudicate...): status and reads only.
        readOnly: z.boolean().default(false),
        // When set, start_run starts only a plan whose name matches one (a glob, * any text) and whose
        // governance.operators lists this server's actor, so the operators keep the run they started.
        startPlans: z.array(z.string().min(1).max(200)).max(256).optional(),
      })
      .strict()
      .prefault({}),
    // Traces (and metrics) over OTLP (src/telemetry); the standard OTEL_* variables win over it.
    telemetry: TelemetryConfigSchema.optional(),
  })
  .strict();

export type TeamrunConfig = z.infer<typeof ConfigSchema>;

export { ConfigError } from './errors';

/** teamrun's own config file; `temporal.yaml`, its first name, is still read when this one is absent. */
export const CONFIG_FILE = 'teamrun.yaml';
export const LEGACY_CONFIG_FILE = 'temporal.yaml';

/** The config file a command reads: `file`, else `$TEAMRUN_CONFIG`, else ./teamrun.yaml, else ./temporal.yaml. */
export function configFilePath(
  file?: string,
  env: NodeJS.ProcessEnv = process.env,
): { path: string; explicit: boolean } {
  const explicit = file ?? env.TEAMRUN_CONFIG;
  if (explicit) return { path: explicit, explicit: true };
  const current = path.resolve(CONFIG_FILE);
  const legacy = path.resolve(LEGACY_CONFIG_FILE);
  return { path: !existsSync(current) && existsSync(legacy) ? legacy : current, explicit: false };
}

/**
 * Reads teamrun's config file (see `configFilePath`); a missing default file means defaults.
 * The connection's address and namespace come, first to last: `TEMPORAL_ADDRESS` /
 * `TEMPORAL_NAMESPACE`; the Temporal profile `TEMPORAL_PROFILE` names; the config file's
 * `connection`; the `default` profile of temporal.toml; 127.0.0.1:7233 and `default`.
 * `TEAMRUN_TASK_QUEUE` overrides the file's task queue.
 */
export function loadConfig(
  file?: string,
  env: NodeJS.ProcessEnv = process.env,
): TeamrunConfig & { file: string | null } {
  const { path: chosen, explicit } = configFilePath(file, env);
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
  const written = (raw as { connection?: { address?: unknown; namespace?: unknown } } | null)?.connection ?? {};
  const profile = temporalProfile(env, { fileOnly: true });
  const named = Boolean(env.TEMPORAL_PROFILE);
  const pick = (fromEnv: string | undefined, fromProfile: string | undefined, inFile: boolean, fromFile: string) =>
    fromEnv || (named && fromProfile) || (inFile ? fromFile : fromProfile || fromFile);
  config.connection.address = pick(
    env.TEMPORAL_ADDRESS,
    profile.address,
    written.address !== undefined,
    config.connection.address,
  );
  config.connection.namespace = pick(
    env.TEMPORAL_NAMESPACE,
    profile.namespace,
    written.namespace !== undefined,
    config.connection.namespace,
  );
  if (env.TEAMRUN_TASK_QUEUE) config.connection.taskQueue = env.TEAMRUN_TASK_QUEUE;
  return { ...config, file: existsSync(chosen) ? chosen : null };
}
