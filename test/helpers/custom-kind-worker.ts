// A worker process with one custom kind, `spender` (`{ ms }`: waits, as if it spent without asking the run): a
// lost attempt of a custom kind is one nothing bounds (docs/budgets.md). Started by spawnWorkerProcess({ script }).
import { z } from 'zod';
import { createWorker, defineExecutor, loadConfig } from '../../src/worker';

const spender = defineExecutor(z.object({ ms: z.number().int().min(0) }), async (spec, ctx) => {
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, spec.ms);
    ctx.signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  return { output: 'spent' };
});

void (async () => {
  const worker = await createWorker({
    config: loadConfig(),
    identity: process.env.TEAMRUN_WORKER_IDENTITY,
    executors: { spender },
    workflowBundle: process.env.TEAMRUN_WORKFLOW_BUNDLE ? { codePath: process.env.TEAMRUN_WORKFLOW_BUNDLE } : undefined,
  });
  process.stdout.write(`teamrun worker ready: ${worker.options.identity}\n`);
  await worker.run();
})();
