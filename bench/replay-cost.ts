import path from 'node:path';
import type { temporal } from '@temporalio/proto';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import type { TeamPlanInput } from '../src/plan/schema';
import { WORKFLOW_TYPE } from '../src/workflows/messages';
import { spawnCliWorker, startBenchEnv } from './env';
import { flatTasks } from './graphs';

/**
 * `npx tsx bench/replay-cost.ts [--noop N] [--rounds R] BUNDLE...`: the workflow
 * side of a task's worker CPU, without a server or a machine's noise in it. Records one teamRun of N noop tasks on
 * `teamrun worker`, then replays that history R times with each workflow bundle given
 * (dist/workflow-bundle.js, or a copy from another build), interleaved, and prints the CPU (user + system, all of
 * the process's threads) per task of each replay: the run's workflow activations, as a worker spends them.
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const option = (name: string) => {
    const i = args.indexOf(name);
    if (i < 0) return undefined;
    const [value] = args.splice(i, 2).slice(1);
    return value;
  };
  const n = Number(option('--noop') ?? 2_000);
  const rounds = Number(option('--rounds') ?? 5);
  const bundles = args.length ? args : ['dist/workflow-bundle.js'];
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const history = await record(n);
  const tasks = n;
  process.stderr.write(`history: ${history.events?.length ?? 0} events\n`);
  const cpu: Record<string, number[]> = Object.fromEntries(bundles.map((b) => [b, []]));
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? bundles : [...bundles].reverse();
    for (const bundle of order) {
      const before = process.cpuUsage();
      await Worker.runReplayHistory({ workflowBundle: { codePath: path.resolve(bundle) } }, history, 'replay-cost');
      const used = process.cpuUsage(before);
      cpu[bundle].push((used.user + used.system) / 1000 / tasks);
    }
  }
  for (const bundle of bundles) {
    const sorted = [...cpu[bundle]].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)];
    const each = cpu[bundle].map((ms) => ms.toFixed(3)).join(', ');
    process.stdout.write(
      `${bundle}: replay CPU per task min ${sorted[0].toFixed(3)} ms, median ${median.toFixed(3)} ms (${each})\n`,
    );
  }
}

/** One teamRun of `n` noop tasks on `teamrun worker`, its history as the server keeps it. */
async function record(n: number): Promise<temporal.api.history.v1.IHistory> {
  const env = await startBenchEnv();
  try {
    const worker = await spawnCliWorker(env, 'replay-cost', 'replay-cost');
    try {
      const plan: TeamPlanInput = {
        name: 'replay-cost',
        teammates: 32,
        lease: { ttlMs: 30_000 },
        continueAsNewAfterEvents: 10_000,
        tasks: flatTasks(n),
      };
      const handle = await env.client.workflow.start(WORKFLOW_TYPE, {
        taskQueue: worker.taskQueue,
        workflowId: `replay-cost-${Date.now().toString(36)}`,
        args: [plan],
      });
      await handle.result();
      return await handle.fetchHistory();
    } finally {
      await worker.stop();
    }
  } finally {
    await env.close();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`replay cost failed: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
