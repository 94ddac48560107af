import { z } from 'zod';
/** The kinds `worker.executors` may enable (the built-in kinds a worker runs). */
export declare const BUILTIN_EXECUTORS: readonly ("agent" | "agent-cli" | "http" | "llm" | "noop" | "shell" | "sleep")[];
declare const PriceSchema: z.ZodObject<{
    inputPerMTok: z.ZodNumber;
    outputPerMTok: z.ZodNumber;
    cachePerMTok: z.ZodOptional<z.ZodNumber>;
}, z.core.$strict>;
export type Price = z.infer<typeof PriceSchema>;
export declare const ScheduleConfigSchema: z.ZodObject<{
    id: z.ZodString;
    plan: z.ZodString;
    cron: z.ZodOptional<z.ZodString>;
    every: z.ZodOptional<z.ZodString>;
    overlap: z.ZodDefault<z.ZodEnum<{
        "allow-all": "allow-all";
        "buffer-all": "buffer-all";
        "buffer-one": "buffer-one";
        "cancel-other": "cancel-other";
        skip: "skip";
    }>>;
    paused: z.ZodDefault<z.ZodBoolean>;
    timezone: z.ZodOptional<z.ZodString>;
}, z.core.$strict>;
export declare const ConfigSchema: z.ZodObject<{
    connection: z.ZodDefault<z.ZodObject<{
        address: z.ZodDefault<z.ZodString>;
        namespace: z.ZodDefault<z.ZodString>;
        taskQueue: z.ZodDefault<z.ZodString>;
        tls: z.ZodDefault<z.ZodBoolean>;
        clientCertPath: z.ZodOptional<z.ZodString>;
        clientKeyPath: z.ZodOptional<z.ZodString>;
    }, z.core.$strict>>;
    devServer: z.ZodDefault<z.ZodObject<{
        ip: z.ZodDefault<z.ZodString>;
        port: z.ZodDefault<z.ZodNumber>;
        uiPort: z.ZodDefault<z.ZodNumber>;
        dbFile: z.ZodDefault<z.ZodString>;
    }, z.core.$strict>>;
    worker: z.ZodPrefault<z.ZodObject<{
        maxConcurrentAttempts: z.ZodDefault<z.ZodNumber>;
        executors: z.ZodDefault<z.ZodArray<z.ZodEnum<{
            agent: "agent";
            "agent-cli": "agent-cli";
            http: "http";
            llm: "llm";
            noop: "noop";
            shell: "shell";
            sleep: "sleep";
        }>>>;
        customKinds: z.ZodDefault<z.ZodArray<z.ZodString>>;
        shutdownGraceMs: z.ZodDefault<z.ZodNumber>;
        stickyScheduleToStartMs: z.ZodDefault<z.ZodNumber>;
        shell: z.ZodPrefault<z.ZodObject<{
            killGraceMs: z.ZodDefault<z.ZodNumber>;
            outputTailBytes: z.ZodDefault<z.ZodNumber>;
            logTailBytes: z.ZodDefault<z.ZodNumber>;
            maxLineBytes: z.ZodDefault<z.ZodNumber>;
            inlineInputsMaxBytes: z.ZodDefault<z.ZodNumber>;
            passEnv: z.ZodDefault<z.ZodArray<z.ZodString>>;
            secretEnv: z.ZodDefault<z.ZodArray<z.ZodString>>;
            allowCommands: z.ZodOptional<z.ZodArray<z.ZodString>>;
            cwdRoot: z.ZodOptional<z.ZodString>;
            cgroup: z.ZodDefault<z.ZodEnum<{
                auto: "auto";
                off: "off";
                required: "required";
            }>>;
        }, z.core.$strict>>;
        http: z.ZodPrefault<z.ZodObject<{
            maxBodyBytes: z.ZodDefault<z.ZodNumber>;
            allowHosts: z.ZodDefault<z.ZodArray<z.ZodString>>;
            allowPublic: z.ZodDefault<z.ZodBoolean>;
            maxRedirects: z.ZodDefault<z.ZodNumber>;
        }, z.core.$strict>>;
        llm: z.ZodPrefault<z.ZodObject<{
            baseUrl: z.ZodDefault<z.ZodString>;
            apiKeyEnv: z.ZodDefault<z.ZodString>;
        }, z.core.$strict>>;
        agentClis: z.ZodDefault<z.ZodRecord<z.ZodEnum<{
            "claude-code": "claude-code";
            codex: "codex";
            gemini: "gemini";
        }> & z.core.$partial, z.ZodObject<{
            command: z.ZodString;
            allowArgs: z.ZodDefault<z.ZodArray<z.ZodString>>;
            env: z.ZodDefault<z.ZodRecord<z.ZodString, z.ZodUnion<readonly [z.ZodString, z.ZodObject<{
                fromWorkerEnv: z.ZodString;
            }, z.core.$strict>]>>>;
            keepWorktrees: z.ZodDefault<z.ZodBoolean>;
        }, z.core.$strict>>>;
        mcpServers: z.ZodDefault<z.ZodRecord<z.ZodString, z.ZodPipe<z.ZodRecord<z.ZodString, z.ZodUnknown>, z.ZodTransform<{
            command: string;
            args?: string[] | undefined;
            env?: Record<string, string> | undefined;
            cwd?: string | undefined;
        } | {
            url: string;
            headersEnv?: Record<string, string> | undefined;
        }, Record<string, unknown>>>>>;
        redact: z.ZodPrefault<z.ZodObject<{
            env: z.ZodDefault<z.ZodArray<z.ZodString>>;
        }, z.core.$strict>>;
    }, z.core.$strict>>;
    prices: z.ZodDefault<z.ZodRecord<z.ZodString, z.ZodObject<{
        inputPerMTok: z.ZodNumber;
        outputPerMTok: z.ZodNumber;
        cachePerMTok: z.ZodOptional<z.ZodNumber>;
    }, z.core.$strict>>>;
    schedules: z.ZodDefault<z.ZodArray<z.ZodObject<{
        id: z.ZodString;
        plan: z.ZodString;
        cron: z.ZodOptional<z.ZodString>;
        every: z.ZodOptional<z.ZodString>;
        overlap: z.ZodDefault<z.ZodEnum<{
            "allow-all": "allow-all";
            "buffer-all": "buffer-all";
            "buffer-one": "buffer-one";
            "cancel-other": "cancel-other";
            skip: "skip";
        }>>;
        paused: z.ZodDefault<z.ZodBoolean>;
        timezone: z.ZodOptional<z.ZodString>;
    }, z.core.$strict>>>;
    codec: z.ZodOptional<z.ZodObject<{
        currentKeyId: z.ZodString;
        keys: z.ZodArray<z.ZodObject<{
            id: z.ZodString;
            file: z.ZodOptional<z.ZodString>;
            env: z.ZodOptional<z.ZodString>;
        }, z.core.$strict>>;
        server: z.ZodOptional<z.ZodObject<{
            host: z.ZodDefault<z.ZodString>;
            port: z.ZodDefault<z.ZodNumber>;
            corsOrigins: z.ZodDefault<z.ZodArray<z.ZodString>>;
            tokenEnv: z.ZodOptional<z.ZodString>;
            tokenFile: z.ZodOptional<z.ZodString>;
            namespaces: z.ZodOptional<z.ZodArray<z.ZodString>>;
        }, z.core.$strict>>;
    }, z.core.$strict>>;
    mcp: z.ZodPrefault<z.ZodObject<{
        actor: z.ZodOptional<z.ZodString>;
    }, z.core.$strict>>;
    telemetry: z.ZodOptional<z.ZodObject<{
        endpoint: z.ZodURL;
        serviceName: z.ZodOptional<z.ZodString>;
        headersEnv: z.ZodOptional<z.ZodRecord<z.ZodString, z.ZodString>>;
        metrics: z.ZodDefault<z.ZodBoolean>;
    }, z.core.$strict>>;
}, z.core.$strict>;
export type TeamrunConfig = z.infer<typeof ConfigSchema>;
export { ConfigError } from './errors';
/** teamrun's own config file; `temporal.yaml`, its first name, is still read when this one is absent. */
export declare const CONFIG_FILE = "teamrun.yaml";
export declare const LEGACY_CONFIG_FILE = "temporal.yaml";
/** The config file a command reads: `file`, else `$TEAMRUN_CONFIG`, else ./teamrun.yaml, else ./temporal.yaml. */
export declare function configFilePath(file?: string, env?: NodeJS.ProcessEnv): {
    path: string;
    explicit: boolean;
};
/**
 * Reads teamrun's config file (see `configFilePath`); a missing default file means defaults.
 * The connection's address and namespace come, first to last: `TEMPORAL_ADDRESS` /
 * `TEMPORAL_NAMESPACE`; the Temporal profile `TEMPORAL_PROFILE` names; the config file's
 * `connection`; the `default` profile of temporal.toml; 127.0.0.1:7233 and `default`.
 * `TEAMRUN_TASK_QUEUE` overrides the file's task queue.
 */
export declare function loadConfig(file?: string, env?: NodeJS.ProcessEnv): TeamrunConfig & {
    file: string | null;
};
