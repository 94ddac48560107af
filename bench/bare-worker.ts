import { NativeConnection, Worker } from '@temporalio/worker';
import { bareActivities } from './bare-activity';

/**
 * The bare baseline's own worker process: what a user who writes the fan-out by hand would run,
 * a plain Temporal worker with the bare activities and a bundle of bareRun alone (bench/bare-workflows.ts), the same
 * activity slots as the teamrun worker it is compared with, and nothing else.
 */
async function main(): Promise<void> {
  const connection = await NativeConnection.connect({ address: process.env.TEMPORAL_ADDRESS });
  const worker = await Worker.create({
    connection,
    taskQueue: process.env.TEAMRUN_TASK_QUEUE ?? 'bare',
    identity: process.env.TEAMRUN_WORKER_IDENTITY,
    workflowBundle: { codePath: process.env.TEAMRUN_WORKFLOW_BUNDLE ?? '' },
    activities: bareActivities,
    maxConcurrentActivityTaskExecutions: Number(process.env.BARE_SLOTS ?? 64),
  });
  process.stdout.write(`teamrun worker ready: bare ${worker.options.identity} queue ${worker.options.taskQueue}\n`);
  await worker.run();
}

main().catch((err) => {
  process.stderr.write(`bare worker: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
