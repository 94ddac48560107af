import path from 'node:path';
import type { WorkerOptions } from '@temporalio/worker';
import type { TelemetrySettings } from '../telemetry/config';
import { attemptSpans } from './attempt-span';

/**
 * The workflow interceptors of a traced worker, Temporal's with a lighter `scheduleActivity` (spans for the run, each
 * activity it schedules, its messages and continue-as-new, whose headers carry the trace on): they run inside the
 * workflow bundle, so a traced worker needs a bundle built with them (`dist/workflow-bundle-otel.js`, see
 * scripts/build.js).
 */
export const WORKFLOW_TRACING_MODULE = path.join(__dirname, '..', 'sdk', `workflow-tracing${path.extname(__filename)}`);

/**
 * What a worker adds with tracing on: the SDK (loaded here, never when off), Temporal's activity
 * interceptors and teamrun's attempt spans, and the sink that exports the workflow's spans (made
 * in the sandbox, never during replay) through the same pipeline.
 */
export function tracedWorkerOptions(
  settings: TelemetrySettings,
  workerIdentity: string,
  /** Whether the worker bundles its workflows at start (a bundle given or pre-built holds the interceptors already). */
  bundling: boolean,
): Pick<WorkerOptions, 'interceptors' | 'sinks'> {
  const { startTelemetry } = require('../telemetry/sdk') as typeof import('../telemetry/sdk');
  const otel =
    require('@temporalio/interceptors-opentelemetry') as typeof import('@temporalio/interceptors-opentelemetry');
  const telemetry = startTelemetry(settings);
  return {
    interceptors: {
      activity: [
        (ctx) => ({
          inbound: new otel.OpenTelemetryActivityInboundInterceptor(ctx),
          outbound: new otel.OpenTelemetryActivityOutboundInterceptor(ctx),
        }),
        attemptSpans(workerIdentity),
      ],
      // Given with a bundle, the SDK would ignore them and say so at every start.
      ...(bundling ? { workflowModules: [WORKFLOW_TRACING_MODULE] } : {}),
    },
    sinks: { exporter: otel.makeWorkflowExporter(telemetry.spanProcessor, telemetry.resource) },
  };
}
