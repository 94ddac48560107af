"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.LEGACY_CONFIG_FILE = exports.CONFIG_FILE = exports.ConfigError = exports.ConfigSchema = exports.ScheduleConfigSchema = exports.BUILTIN_EXECUTORS = void 0;
exports.configFilePath = configFilePath;
exports.loadConfig = loadConfig;
const node_fs_1 = require("node:fs");
const node_path_1 = __importDefault(require("node:path"));
const yaml_1 = require("yaml");
const zod_1 = require("zod");
const config_1 = require("../codec/config");
const agent_clis_1 = require("./agent-clis");
const config_2 = require("../telemetry/config");
const schema_1 = require("../plan/schema");
const validate_1 = require("../plan/validate");
const profile_1 = require("./profile");
const errors_1 = require("./errors");
const mcp_servers_1 = require("./mcp-servers");
/** The kinds `worker.executors` may enable (the built-in kinds a worker runs). */
exports.BUILTIN_EXECUTORS = schema_1.WORKER_EXECUTOR_KINDS;
const PriceSchema = zod_1.z
    .object({
    inputPerMTok: zod_1.z.number().nonnegative(),
    outputPerMTok: zod_1.z.number().nonnegative(),
    cachePerMTok: zod_1.z.number().nonnegative().optional(),
})
    .strict();
exports.ScheduleConfigSchema = zod_1.z
    .object({
    id: zod_1.z.string().min(1),
    plan: zod_1.z.string().min(1),
    cron: zod_1.z.string().optional(),
    every: zod_1.z.string().optional(),
    overlap: zod_1.z.enum(['skip', 'buffer-one', 'buffer-all', 'cancel-other', 'allow-all']).default('skip'),
    paused: zod_1.z.boolean().default(false),
    timezone: zod_1.z.string().optional(),
})
    .strict()
    .refine((s) => (s.cron === undefined) !== (s.every === undefined), {
    message: 'give exactly one of "cron" or "every"',
});
exports.ConfigSchema = zod_1.z
    .object({
    connection: zod_1.z
        .object({
        address: zod_1.z.string().min(1).default('127.0.0.1:7233'),
        namespace: zod_1.z.string().min(1).default('default'),
        taskQueue: zod_1.z.string().min(1).default('teamrun'),
        // TLS for a remote cluster; an API key ($TEMPORAL_API_KEY) or a client certificate implies it.
        tls: zod_1.z.boolean().default(false),
        clientCertPath: zod_1.z.string().min(1).optional(),
        clientKeyPath: zod_1.z.string().min(1).optional(),
    })
        .strict()
        .refine((c) => (c.clientCertPath === undefined) === (c.clientKeyPath === undefined), {
        message: 'give both "clientCertPath" and "clientKeyPath", or neither',
    })
        .default({ address: '127.0.0.1:7233', namespace: 'default', taskQueue: 'teamrun', tls: false }),
    devServer: zod_1.z
        .object({
        ip: zod_1.z.string().default('127.0.0.1'),
        port: zod_1.z.number().int().min(1).max(65535).default(7233),
        uiPort: zod_1.z.number().int().min(1).max(65535).default(8233),
        dbFile: zod_1.z.string().default('.teamrun/dev.db'),
    })
        .strict()
        .default({ ip: '127.0.0.1', port: 7233, uiPort: 8233, dbFile: '.teamrun/dev.db' }),
    worker: zod_1.z
        .object({
        maxConcurrentAttempts: zod_1.z.number().int().min(1).max(10_000).default(64),
        // Only built-in kinds: a typo would otherwise silently disable one. Custom kinds are
        // enabled by passing them to createWorker in code.
        executors: zod_1.z
            .array(zod_1.z.enum(exports.BUILTIN_EXECUTORS, { error: `must be one of ${exports.BUILTIN_EXECUTORS.join(', ')}` }))
            .default([...exports.BUILTIN_EXECUTORS]),
        // Custom kinds this project's workers register in code: `teamrun validate` knows them.
        customKinds: zod_1.z.array(zod_1.z.string().regex(/^[A-Za-z0-9._-]{1,64}$/)).default([]),
        shutdownGraceMs: zod_1.z.number().int().nonnegative().default(2_000),
        // How long a run's next workflow task waits for this worker (which has
        // the run cached) before any worker may take it: docs/lease-pace.md.
        stickyScheduleToStartMs: zod_1.z.number().int().min(100).max(60_000).default(2_500),
        shell: zod_1.z
            .object({
            killGraceMs: zod_1.z.number().int().nonnegative().default(2_000),
            // The end of stdout/stderr a failure message quotes (after redaction).
            outputTailBytes: zod_1.z
                .number()
                .int()
                .min(256)
                .max(1024 * 1024)
                .default(4_096),
            // The end of stdout and of stderr each attempt keeps in history (`teamrun logs`).
            logTailBytes: zod_1.z
                .number()
                .int()
                .min(0)
                .max(64 * 1024)
                .default(4_096),
            // A `::teamrun-*::` line longer than this is dropped, not parsed (and fails the task).
            maxLineBytes: zod_1.z
                .number()
                .int()
                .min(1024)
                .max(16 * 1024 * 1024)
                .default(256 * 1024),
            // Dependency outputs up to this size are also given inline in $TEAMRUN_INPUTS.
            inlineInputsMaxBytes: zod_1.z
                .number()
                .int()
                .min(0)
                .max(1024 * 1024)
                .default(32 * 1024),
            // Worker variables (names or globs: AWS_*) passed to every task, beyond PATH, HOME, LANG, LC_*, TMPDIR, TZ.
            passEnv: zod_1.z.array(zod_1.z.string().min(1)).default([]),
            // Worker variables a plan may take by name (`env: { X: { fromWorkerEnv: NAME } }`); always redacted.
            secretEnv: zod_1.z.array(zod_1.z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a variable name')).default([]),
            // When set, a command runs only if one pattern matches all of it (`/regex/` or a glob where * is any text).
            allowCommands: zod_1.z.array(zod_1.z.string().min(1)).optional(),
            // When set, a task's cwd must resolve inside this directory (relative cwds start here).
            cwdRoot: zod_1.z.string().min(1).optional(),
            // A cgroup (v2) per attempt when the worker may create one (auto),
            // never (off), or fail the attempt without one (required).
            cgroup: zod_1.z.enum(['auto', 'off', 'required']).default('auto'),
        })
            .strict()
            .prefault({}),
        http: zod_1.z
            .object({
            // A response body over this is not read on: the task fails, non-retryably.
            maxBodyBytes: zod_1.z
                .number()
                .int()
                .min(1024)
                .max(1024 * 1024 * 1024)
                .default(1024 * 1024),
            // Destinations reachable although loopback, private or link-local: host, host:port, IP, IP:port or CIDR.
            allowHosts: zod_1.z.array(zod_1.z.string().min(1)).default([]),
            // Whether public addresses are reachable without an allowHosts entry.
            allowPublic: zod_1.z.boolean().default(true),
            maxRedirects: zod_1.z.number().int().min(0).max(20).default(5),
        })
            .strict()
            .prefault({}),
        llm: zod_1.z
            .object({
            baseUrl: zod_1.z.string().default('http://127.0.0.1:11434/v1'),
            apiKeyEnv: zod_1.z.string().default('OPENAI_API_KEY'),
        })
            .strict()
            .prefault({}),
        // The coding-agent CLIs `agent-cli` tasks may run on this worker (docs/agent-clis.md).
        agentClis: agent_clis_1.AgentClisConfigSchema,
        // MCP servers whose tools this worker's agents may call (`<server>__<tool>`): docs/configuration.md.
        mcpServers: mcp_servers_1.McpServersSchema.default({}),
        // Worker variables whose values are redacted from everything reported, beyond the ones the worker knows.
        redact: zod_1.z
            .object({ env: zod_1.z.array(zod_1.z.string().min(1)).default([]) })
            .strict()
            .prefault({}),
    })
        .strict()
        .prefault({}),
    prices: zod_1.z.record(zod_1.z.string(), PriceSchema).default({}),
    schedules: zod_1.z.array(exports.ScheduleConfigSchema).default([]),
    // Payload encryption (src/codec): key ids and where each key is read from, never key values.
    codec: config_1.CodecConfigSchema.optional(),
    // `teamrun mcp`: who the server acts as (checked by each run against governance.operators), never the caller's.
    mcp: zod_1.z
        .object({ actor: zod_1.z.string().min(1).max(200).optional() })
        .strict()
        .prefault({}),
    // Traces (and metrics) over OTLP (src/telemetry); the standard OTEL_* variables win over it.
    telemetry: config_2.TelemetryConfigSchema.optional(),
})
    .strict();
var errors_2 = require("./errors");
Object.defineProperty(exports, "ConfigError", { enumerable: true, get: function () { return errors_2.ConfigError; } });
/** teamrun's own config file; `temporal.yaml`, its first name, is still read when this one is absent. */
exports.CONFIG_FILE = 'teamrun.yaml';
exports.LEGACY_CONFIG_FILE = 'temporal.yaml';
/** The config file a command reads: `file`, else `$TEAMRUN_CONFIG`, else ./teamrun.yaml, else ./temporal.yaml. */
function configFilePath(file, env = process.env) {
    const explicit = file ?? env.TEAMRUN_CONFIG;
    if (explicit)
        return { path: explicit, explicit: true };
    const current = node_path_1.default.resolve(exports.CONFIG_FILE);
    const legacy = node_path_1.default.resolve(exports.LEGACY_CONFIG_FILE);
    return { path: !(0, node_fs_1.existsSync)(current) && (0, node_fs_1.existsSync)(legacy) ? legacy : current, explicit: false };
}
/**
 * Reads teamrun's config file (see `configFilePath`); a missing default file means defaults.
 * The connection's address and namespace come, first to last: `TEMPORAL_ADDRESS` /
 * `TEMPORAL_NAMESPACE`; the Temporal profile `TEMPORAL_PROFILE` names; the config file's
 * `connection`; the `default` profile of temporal.toml; 127.0.0.1:7233 and `default`.
 * `TEAMRUN_TASK_QUEUE` overrides the file's task queue.
 */
function loadConfig(file, env = process.env) {
    const { path: chosen, explicit } = configFilePath(file, env);
    let raw = {};
    if ((0, node_fs_1.existsSync)(chosen)) {
        try {
            raw = (0, yaml_1.parse)((0, node_fs_1.readFileSync)(chosen, 'utf8')) ?? {};
        }
        catch (err) {
            throw new errors_1.ConfigError(`${chosen}: not valid YAML: ${err.message.split('\n')[0]}`);
        }
    }
    else if (explicit) {
        throw new errors_1.ConfigError(`${chosen}: config file not found`);
    }
    const parsed = exports.ConfigSchema.safeParse(raw);
    if (!parsed.success) {
        const problems = parsed.error.issues.map((i) => `  ${(0, validate_1.formatPath)(i.path)}: ${i.message}`).join('\n');
        throw new errors_1.ConfigError(`${chosen}: invalid config:\n${problems}`);
    }
    const config = parsed.data;
    const written = raw?.connection ?? {};
    const profile = (0, profile_1.temporalProfile)(env, { fileOnly: true });
    const named = Boolean(env.TEMPORAL_PROFILE);
    const pick = (fromEnv, fromProfile, inFile, fromFile) => fromEnv || (named && fromProfile) || (inFile ? fromFile : fromProfile || fromFile);
    config.connection.address = pick(env.TEMPORAL_ADDRESS, profile.address, written.address !== undefined, config.connection.address);
    config.connection.namespace = pick(env.TEMPORAL_NAMESPACE, profile.namespace, written.namespace !== undefined, config.connection.namespace);
    if (env.TEAMRUN_TASK_QUEUE)
        config.connection.taskQueue = env.TEAMRUN_TASK_QUEUE;
    return { ...config, file: (0, node_fs_1.existsSync)(chosen) ? chosen : null };
}
