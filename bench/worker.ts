import { DefaultLogger, Runtime } from '@temporalio/worker';
import { loadConfig } from '../src/config/config';
import { createWorker } from '../src/worker/create-worker';
import { bareActivities } from './bare-activity';
import { bareAgentActivities } from './bare-agent';

/**
 * The benchmark's worker process: teamrun's own worker (src/worker/create-worker.ts, the same
 * options) with the bare baselines' activities (a trivial one, an agent's model and tool calls)
 * registered too, so both run side by side.
 */
async function main(): Promise<void> {
  if (process.env.BENCH_TRACE_ACTIVITIES) {
    // Every attempt's start and end in the worker's log: which attempts this worker ever received.
    Runtime.install({
      logger: new DefaultLogger('DEBUG', (entry) => {
        const meta = (entry.meta ?? {}) as { workflowId?: string; activityId?: string };
        const traced = /^Activity (started|completed|failed)/.test(entry.message);
        if (traced || entry.level === 'WARN' || entry.level === 'ERROR') {
          process.stderr.write(
            `${new Date().toISOString()} ${entry.level} ${entry.message} ${meta.workflowId ?? ''} ${meta.activityId ?? ''}\n`,
          );
        }
      }),
    });
  }
  const config = loadConfig();
  const bundle = process.env.TEAMRUN_WORKFLOW_BUNDLE;
  const worker = await createWorker({
    config,
    identity: process.env.TEAMRUN_WORKER_IDENTITY,
    workflowBundle: bundle ? { codePath: bundle } : undefined,
    activities: { ...bareActivities, ...bareAgentActivities },
  });
  process.stdout.write(`teamrun worker ready: ${worker.options.identity} queue ${worker.options.taskQueue}\n`);
  await worker.run();
}

main().catch((err) => {
  process.stderr.write(`bench worker: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
