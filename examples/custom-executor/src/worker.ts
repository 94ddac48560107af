import { createWorker } from 'teamrun/worker';
import { greet } from './greet';

// Connection and task queue as teamrun reads them: teamrun.yaml here, the Temporal profile
// (temporal.toml, TEMPORAL_PROFILE), TEMPORAL_ADDRESS / TEMPORAL_NAMESPACE, TEAMRUN_TASK_QUEUE.
// The workflows come prebuilt with the package: nothing is bundled at start.
async function main(): Promise<void> {
  const worker = await createWorker({ executors: { greet } });
  console.log(`worker ready on task queue "${worker.options.taskQueue}" with the greet executor`);
  await worker.run();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
