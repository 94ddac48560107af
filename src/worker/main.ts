import { Runtime, type RuntimeOptions } from '@temporalio/worker';
import { loadConfig, type TeamrunConfig } from '../config/config';
import { createWorker } from './create-worker';
import { installTerminalLogger } from './log-format';

/**
 * `TEAMRUN_METRICS_ADDRESS=127.0.0.1:9464` serves the worker's Temporal SDK metrics for
 * Prometheus at http://127.0.0.1:9464/metrics (docs/deploy.md lists the ones that show lease
 * trouble); without it there is no endpoint.
 */
function metricsOptions(env: NodeJS.ProcessEnv = process.env): Pick<RuntimeOptions, 'telemetryOptions'> {
  const bindAddress = env.TEAMRUN_METRICS_ADDRESS;
  return bindAddress ? { telemetryOptions: { metrics: { prometheus: { bindAddress } } } } : {};
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
  installTerminalLogger('INFO', metricsOptions());
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
