import type { WorkerOptions } from '@temporalio/worker';
import type { TelemetrySettings } from '../telemetry/config';
/**
 * Temporal's own workflow interceptors (spans for the run, each activity it schedules, its messages
 * and continue-as-new, whose headers carry the trace on): they run inside the workflow bundle, so a
 * traced worker needs a bundle built with them (`dist/workflow-bundle-otel.js`, see scripts/build.js).
 */
export declare const WORKFLOW_TRACING_MODULE: string;
/**
 * What a worker adds with tracing on: the SDK (loaded here, never when off), Temporal's activity
 * interceptors and teamrun's attempt spans, and the sink that exports the workflow's spans (made
 * in the sandbox, never during replay) through the same pipeline.
 */
export declare function tracedWorkerOptions(settings: TelemetrySettings, workerIdentity: string): Pick<WorkerOptions, 'interceptors' | 'sinks'>;
