import { Runtime, type RuntimeOptions } from '@temporalio/worker';
import { loadConfig, type TeamrunConfig } from '../config/config';
import { telemetrySettings } from '../telemetry/config';
import { createWorker } from './create-worker';
import { installTerminalLogger } from './log-format';

/**
 * Where the Temporal runtime sends the worker's metrics (the SDK's and teamrun's own, which the
 * workflow records through its `metricMeter`; docs/observability.md lists them):
 * `TEAMRUN_METRICS_ADDRESS=127.0.0.1:9464` serves them for Prometheus at
 * http://127.0.0.1:9464/metrics (docs/deploy.md lists the ones that show lease trouble); else, with
 * OTLP metrics on (`OTEL_EXPORTER_OTLP_METRICS_ENDPOINT`, `OTEL_METRICS_EXPORTER=otlp`, or
 * `telemetry.metrics`), they go over OTLP/HTTP; else nowhere.
 */
function metricsOptions(
  config: TeamrunConfig,
  env: NodeJS.ProcessEnv = process.env,
): Pick<RuntimeOptions, 'telemetryOptions'> {
  const bindAddress = env.TEAMRUN_METRICS_ADDRESS;
  if (bindAddress) return { telemetryOptions: { metrics: { prometheus: { bindAddress } } } };
  const otlp = telemetrySettings(config.telemetry, env, 'worker');
  if (!otlp?.metricsUrl) return {};
  return { telemetryOptions: { metrics: { otel: { url: otlp.metricsUrl, http: true, headers: otlp.headers } } } };
}

/**
 * Runs one worker until SIGINT/SIGTERM (Temporal's runtime handles both and shuts down
 * gracefully). `TEAMRUN_WORKFLOW_BUNDLE` points at a pre-built workflow bundle to skip bundling.
 */
export async function runWorker(
  options: { taskQueue?: string; identity?: string; config?: TeamrunConfig } = {},
): Promise<void> {
  const config = options.config ?? loadConfig();
  const bundle = process.env.TEAMRUN_WORKFLOW_BUNDLE;
  if (bundle && config.codec) {
    process.stderr.write(
      'teamrun worker: codec on with a pre-built workflow bundle: ' +
        'failures the workflow itself raises stay plaintext in history ' +
        'unless the bundle was built with the failureConverterPath of dataConverterFor(config) (docs/security.md)\n',
    );
  }
  if (bundle && telemetrySettings(config.telemetry, process.env, 'worker')) {
    process.stderr.write(
      'teamrun worker: tracing on with a pre-built workflow bundle: the run and its attempts join ' +
        'one trace only if the bundle holds the workflow tracing interceptors (built with ' +
        "workflowInterceptorModules: [WORKFLOW_TRACING_MODULE] from 'teamrun/worker'; " +
        'dist/workflow-bundle-otel.js holds them; docs/observability.md)\n',
    );
  }
  installTerminalLogger('INFO', metricsOptions(config));
  const worker = await createWorker({
    config,
    taskQueue: options.taskQueue,
    identity: options.identity ?? process.env.TEAMRUN_WORKER_IDENTITY,
    workflowBundle: bundle ? { codePath: bundle } : undefined,
  });
  process.stdout.write(
    `teamrun worker ready: ${worker.options.identity} ` +
      `on ${config.connection.address} queue ${worker.options.taskQueue}\n`,
  );
  await worker.run();
  // The worker's connection stays registered with the runtime, whose forwarded core logs keep the
  // process alive: shut the runtime down so that a stopped worker exits.
  await Runtime.instance().shutdown();
}

if (require.main === module) {
  runWorker().catch((err) => {
    process.stderr.write(`teamrun worker: ${(err as Error).stack ?? err}\n`);
    process.exit(1);
  });
}
