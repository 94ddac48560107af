import { z } from 'zod';
import { ConfigError } from '../config/errors';

const ENV_NAME = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'not an environment variable name');

/**
 * `telemetry:` in teamrun.yaml: where spans and metrics go (OTLP over HTTP). The standard `OTEL_*`
 * variables win over it, as every OpenTelemetry SDK reads them; header values are read from the
 * environment (`headersEnv`), never written in the file.
 */
export const TelemetryConfigSchema = z
  .object({
    /** The OTLP/HTTP base URL (`/v1/traces` and `/v1/metrics` are added), like `OTEL_EXPORTER_OTLP_ENDPOINT`. */
    endpoint: z.url({ protocol: /^https?$/, error: 'an http(s) URL, like http://127.0.0.1:4318' }).max(2048),
    serviceName: z.string().min(1).max(128).optional(),
    /** Header name -> the environment variable holding its value (an API key, say). */
    headersEnv: z.record(z.string().regex(/^[A-Za-z0-9-]{1,64}$/, 'not a header name'), ENV_NAME).optional(),
    /** Metrics too, to `<endpoint>/v1/metrics` (off by default: Jaeger, say, takes traces only). */
    metrics: z.boolean().default(false),
  })
  .strict();

export type TelemetryConfig = z.infer<typeof TelemetryConfigSchema>;

/** What a process exports to, once tracing is on. */
export interface TelemetrySettings {
  tracesUrl: string;
  /** The spans' encoding on the wire (`OTEL_EXPORTER_OTLP_[TRACES_]PROTOCOL`); protobuf unless told. */
  protocol: OtlpProtocol;
  metricsUrl: string | null;
  serviceName: string;
  headers: Record<string, string>;
  /** The payload codec is on: spans then carry no task text (without-task-text.ts). */
  withoutTaskText?: boolean;
}

const MAX_ENV_VALUE = 4096;

export type OtlpProtocol = 'http/protobuf' | 'http/json';

/** The standard protocol variables: `http/protobuf` (the default) or `http/json`; gRPC is not sent. */
function otlpProtocol(env: NodeJS.ProcessEnv): OtlpProtocol {
  const name = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?.trim()
    ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const value = env[name]?.trim().toLowerCase();
  if (!value || value === 'http/protobuf') return 'http/protobuf';
  if (value === 'http/json') return 'http/json';
  throw new ConfigError(`${name}: "${value.slice(0, 64)}" is not sent by teamrun; use http/protobuf or http/json`);
}

/**
 * Tracing is on when `OTEL_EXPORTER_OTLP_ENDPOINT` (or `..._TRACES_ENDPOINT`) or the config's
 * `telemetry.endpoint` names a collector, unless `OTEL_SDK_DISABLED=true` or
 * `OTEL_TRACES_EXPORTER=none`. Null when off: then nothing of the SDK is loaded.
 */
export function telemetrySettings(
  config: TelemetryConfig | undefined,
  env: NodeJS.ProcessEnv,
  role: 'worker' | 'client',
): TelemetrySettings | null {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return null;
  if (env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === 'none') return null;
  const base = bounded(env.OTEL_EXPORTER_OTLP_ENDPOINT, 'OTEL_EXPORTER_OTLP_ENDPOINT') ?? config?.endpoint;
  const traces = bounded(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  if (!base && !traces) return null;
  const metricsExporter = env.OTEL_METRICS_EXPORTER?.trim().toLowerCase();
  const metrics = bounded(env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT, 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT');
  const metricsOn = metricsExporter !== 'none' && (metrics || metricsExporter === 'otlp' || config?.metrics === true);
  const headers: Record<string, string> = {};
  for (const [name, variable] of Object.entries(config?.headersEnv ?? {})) {
    const value = bounded(env[variable], variable);
    if (value === undefined)
      throw new ConfigError(`telemetry.headersEnv.${name}: environment variable ${variable} is not set`);
    headers[name] = value;
  }
  return {
    tracesUrl: traces ?? joinUrl(base as string, 'v1/traces'),
    protocol: otlpProtocol(env),
    metricsUrl: metricsOn ? (metrics ?? (base ? joinUrl(base, 'v1/metrics') : null)) : null,
    serviceName: bounded(env.OTEL_SERVICE_NAME, 'OTEL_SERVICE_NAME') ?? config?.serviceName ?? `teamrun-${role}`,
    headers,
  };
}

function bounded(value: string | undefined, name: string): string | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  if (trimmed.length > MAX_ENV_VALUE) throw new ConfigError(`${name}: longer than ${MAX_ENV_VALUE} characters`);
  return trimmed;
}

function joinUrl(base: string, suffix: string): string {
  return `${base.replace(/\/+$/, '')}/${suffix}`;
}
