/**
 * Jaeger (v2, all-in-one, in-memory) for looking at teamrun's traces on this machine: built once
 * from the Go module proxy with the Go toolchain, as the cluster's Temporal server is
 * (scripts/cluster/build.ts), cached in `.teamrun/jaeger/<version>/`; `npm run jaeger` and
 * `teamrun dev --tracing` start it.
 *
 * The module ships no Jaeger UI: `cmd/query/app/ui/actual/` is empty in it (upstream fills it from
 * the jaeger-ui repository before a release build), so the binary serves a placeholder page at
 * `/`; the query API (`/api/traces`, `/api/services`) is complete. `JAEGER_UI_ASSETS` names a
 * directory of a built jaeger-ui to serve instead (Jaeger's `ui.assets_path`).
 */
import { type ChildProcess } from 'node:child_process';
import { TeamrunError } from '../errors';
import { type GoBuildFailure } from './go-build';
export declare const JAEGER_MODULE = "github.com/jaegertracing/jaeger";
export declare const JAEGER_VERSION = "v1.76.0";
export declare class JaegerError extends TeamrunError {
    readonly code: GoBuildFailure | 'JAEGER_NOT_READY';
    constructor(code: GoBuildFailure | 'JAEGER_NOT_READY', message: string);
}
export declare function jaegerDir(version?: string): string;
export declare function jaegerBinary(version?: string): string;
/**
 * The jaeger binary at `version`, built (`go build ./cmd/jaeger` inside the downloaded module, so
 * its go.mod applies as upstream builds it) unless it is already; into a scratch directory renamed
 * at the end, so an interrupted build leaves nothing that looks finished.
 */
export declare function ensureJaegerBuild(log: (line: string) => void, version?: string): string;
export interface JaegerPorts {
    /** OTLP over HTTP: where teamrun sends spans (`OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:<otlp>`). */
    otlp: number;
    /** The query API and UI. */
    query: number;
    /** The query API over gRPC (unused by teamrun, but Jaeger's query always opens it). */
    queryGrpc: number;
}
export declare const DEFAULT_JAEGER_PORTS: JaegerPorts;
/**
 * Jaeger's config: OTLP/HTTP in, memory storage, the query API and UI; only on 127.0.0.1, and
 * none of the all-in-one default's other receivers and ports (so tests can run it beside another).
 */
export declare function jaegerConfig(ports: JaegerPorts, assetsPath?: string): string;
export interface RunningJaeger {
    process: ChildProcess;
    /** For `OTEL_EXPORTER_OTLP_ENDPOINT`. */
    otlpEndpoint: string;
    /** The query API (`/api/traces/<id>`) and UI. */
    queryUrl: string;
    stop(): Promise<void>;
}
/** Builds Jaeger if needed, starts it with `ports`, and resolves once its query API answers. */
export declare function startJaeger(options?: {
    ports?: JaegerPorts;
    log?: (line: string) => void;
    readyWithinMs?: number;
}): Promise<RunningJaeger>;
