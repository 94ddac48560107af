import path from 'node:path';
import { promiseHooks } from 'node:v8';
import type { temporal } from '@temporalio/proto';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import type { TeamPlanInput } from '../src/plan/schema';
import { WORKFLOW_TYPE } from '../src/workflows/messages';
import type { BaselineInput } from './baseline-workflow';
import { spawnBareWorker, spawnCliWorker, startBenchEnv, type BenchEnv } from './env';
import { flatTasks } from './graphs';
import { takeNumberOption } from './stats';

type History = temporal.api.history.v1.IHistory;

/**
 * `npx tsx bench/replay-cost.ts [--noop N] [--rounds R] [BUNDLE...]`: the workflow side of a task's worker CPU,
 * without a server, an activity or a busy machine's noise in it. Records one teamRun of N noop tasks on `teamrun
 * worker` and the bare fan-out of the same tasks on its plain worker (bench/bare-worker.ts), then replays each history
 * R times, interleaved: teamRun's with each workflow bundle given (dist/workflow-bundle.js by default, or copies
 * from other builds of the same commands), the bare one with the bench's bundle. Prints the CPU (user + system, all
 * of the process's threads) per task of each replay, and the promises created per task: the SDK captures and
 * formats a stack for each promise a workflow creates, the largest part of an activation's CPU.
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const option = (name: string, fallback: number) => takeNumberOption(args, name, fallback);
  const n = option('--noop', 2_000);
  const rounds = option('--rounds', 5);
  const bundles = (args.length ? args : ['dist/workflow-bundle.js']).map((b) => path.resolve(b));
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const env = await startBenchEnv();
  try {
    const histories = await record(env, n);
    const replays = [
      ...bundles.map((bundle) => ({
        name: `teamRun, ${path.relative(process.cwd(), bundle)}`,
        bundle,
        history: histories.team,
      })),
      { name: 'bare fan-out, its own bundle', bundle: env.bareBundlePath, history: histories.bare },
    ];
    const cpu = new Map(replays.map((r) => [r.name, [] as number[]]));
    const promises = new Map<string, number>();
    for (let round = 0; round < rounds; round++) {
      for (const replay of round % 2 === 0 ? replays : [...replays].reverse()) {
        let created = 0;
        const stop = promiseHooks.onInit(() => void created++);
        const before = process.cpuUsage();
        await Worker.runReplayHistory({ workflowBundle: { codePath: replay.bundle } }, replay.history, 'replay-cost');
        const used = process.cpuUsage(before);
        stop();
        cpu.get(replay.name)!.push((used.user + used.system) / 1000 / n);
        promises.set(replay.name, created / n);
      }
    }
    for (const { name } of replays) {
      const each = cpu.get(name)!;
      const sorted = [...each].sort((a, b) => a - b);
      process.stdout.write(
        `${name}: replay CPU per task min ${sorted[0].toFixed(3)} ms, median ` +
          `${sorted[Math.floor(sorted.length / 2)].toFixed(3)} ms (${each.map((ms) => ms.toFixed(3)).join(', ')}); ` +
          `${promises.get(name)!.toFixed(1)} promises per task\n`,
      );
    }
  } finally {
    await env.close();
  }
}

/** One teamRun of `n` noop tasks on `teamrun worker` and the bare fan-out of them: their histories. */
async function record(env: BenchEnv, n: number): Promise<{ team: History; bare: History }> {
  const tasks = flatTasks(n);
  const [team, bare] = await Promise.all([
    spawnCliWorker(env, 'replay-team', 'replay-team'),
    spawnBareWorker(env, 'replay-bare', 'replay-bare'),
  ]);
  try {
    const id = Date.now().toString(36);
    const plan: TeamPlanInput = { name: 'replay-cost', teammates: 32, lease: { ttlMs: 30_000 }, tasks };
    const teamRun = await env.client.workflow.start(WORKFLOW_TYPE, {
      taskQueue: team.taskQueue,
      workflowId: `replay-team-${id}`,
      args: [{ ...plan, continueAsNewAfterEvents: 10_000 }],
    });
    await teamRun.result();
    const input: BaselineInput = { keys: tasks.map((t) => t.key), concurrency: 32, ttlMs: 30_000 };
    const bareRun = await env.client.workflow.start('bareRun', {
      taskQueue: bare.taskQueue,
      workflowId: `replay-bare-${id}`,
      args: [input],
    });
    await bareRun.result();
    const histories = { team: await teamRun.fetchHistory(), bare: await bareRun.fetchHistory() };
    process.stderr.write(
      `recorded: teamRun ${histories.team.events?.length} events, bare ${histories.bare.events?.length} events\n`,
    );
    return histories;
  } finally {
    await Promise.all([team.stop(), bare.stop()]);
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`replay cost failed: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
