// A worker process with logging host hooks (hook-log.ts) on the file TEAMRUN_HOOK_LOG names. Started by
// spawnWorkerProcess({ script }); the hooks test kills it with SIGKILL mid-attempt.
import { createWorker, loadConfig } from '../../src/worker';
import { loggingHooks } from './hook-log';

void (async () => {
  const worker = await createWorker({
    config: loadConfig(),
    identity: process.env.TEAMRUN_WORKER_IDENTITY,
    hooks: loggingHooks(process.env.TEAMRUN_HOOK_LOG!),
    workflowBundle: process.env.TEAMRUN_WORKFLOW_BUNDLE ? { codePath: process.env.TEAMRUN_WORKFLOW_BUNDLE } : undefined,
  });
  process.stdout.write(`teamrun worker ready: ${worker.options.identity}\n`);
  await worker.run();
})();
