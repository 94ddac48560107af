import { z } from 'zod';
/**
 * `telemetry:` in teamrun.yaml: where spans and metrics go (OTLP over HTTP). The standard `OTEL_*`
 * variables win over it, as every OpenTelemetry SDK reads them; header values are read from the
 * environment (`headersEnv`), never written in the file.
 */
export declare const TelemetryConfigSchema: z.ZodObject<{
    endpoint: z.ZodURL;
    serviceName: z.ZodOptional<z.ZodString>;
    headersEnv: z.ZodOptional<z.ZodRecord<z.ZodString, z.ZodString>>;
    metrics: z.ZodDefault<z.ZodBoolean>;
}, z.core.$strict>;
export type TelemetryConfig = z.infer<typeof TelemetryConfigSchema>;
/** What a process exports to, once tracing is on. */
export interface TelemetrySettings {
    tracesUrl: string;
    metricsUrl: string | null;
    serviceName: string;
    headers: Record<string, string>;
}
/**
 * Tracing is on when `OTEL_EXPORTER_OTLP_ENDPOINT` (or `..._TRACES_ENDPOINT`) or the config's
 * `telemetry.endpoint` names a collector, unless `OTEL_SDK_DISABLED=true` or
 * `OTEL_TRACES_EXPORTER=none`. Null when off: then nothing of the SDK is loaded.
 */
export declare function telemetrySettings(config: TelemetryConfig | undefined, env: NodeJS.ProcessEnv, role: 'worker' | 'client'): TelemetrySettings | null;
