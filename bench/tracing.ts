/**
 * `npm run bench:tracing [-- --quick]`: teamRun's throughput with tracing on (every span exported
 * over OTLP/HTTP to a local Jaeger) against tracing off, on the same dev server: two worker
 * processes, each on its own queue, the same flat graph of noop tasks (the worst case: tracing's
 * cost is per attempt and per workflow step, and a noop attempt costs nothing else), rounds
 * alternating. The figure is the median of the rounds' on/off ratios (target >= 0.9).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DefaultLogger, Runtime, bundleWorkflowCode } from '@temporalio/worker';
import { startJaeger } from '../src/devserver/jaeger';
import { freePort } from '../src/devserver/server';
import type { TeamPlanInput } from '../src/plan/schema';
import { WORKFLOW_TYPE } from '../src/workflows/messages';
import { WORKFLOW_TRACING_MODULE } from '../src/worker/tracing';
import { spawnWorker, startBenchEnv, type BenchEnv, type WorkerProcess } from './env';
import { flatTasks } from './graphs';
import { median } from './stats';
import { TEAMMATES } from './throughput';

const SETTINGS = { quick: { n: 200, rounds: 3 }, full: { n: 1_000, rounds: 5 } } as const;
const quiet = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error: console.error };

async function tasksPerSecond(env: BenchEnv, worker: WorkerProcess, n: number, round: number): Promise<number> {
  const plan: TeamPlanInput = {
    name: 'bench-tracing',
    teammates: TEAMMATES,
    lease: { ttlMs: 30_000 },
    tasks: flatTasks(n),
  };
  const workflowId = `bench-tracing-${worker.taskQueue}-${round}-${Date.now().toString(36)}`;
  const started = Date.now();
  const handle = await env.client.workflow.start(WORKFLOW_TYPE, {
    taskQueue: worker.taskQueue,
    workflowId,
    args: [plan],
  });
  await handle.result();
  return (n * 1000) / (Date.now() - started);
}

async function main(): Promise<void> {
  const mode = process.argv.includes('--quick') ? 'quick' : 'full';
  const { n, rounds } = SETTINGS[mode];
  const log = (line: string) => process.stderr.write(`${line}\n`);
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const env = await startBenchEnv();
  const jaeger = await startJaeger({
    ports: { otlp: await freePort(), query: await freePort(), queryGrpc: await freePort() },
    log,
  });
  try {
    const { code } = await bundleWorkflowCode({
      workflowsPath: path.join(__dirname, 'workflows.ts'),
      workflowInterceptorModules: [WORKFLOW_TRACING_MODULE],
      logger: quiet,
    });
    const otelBundle = path.join(env.dir, 'workflow-bundle-otel.js');
    writeFileSync(otelBundle, code);
    const off = await spawnWorker(env, 'bench-tracing-off', 'tracing-off');
    const on = await spawnWorker(env, 'bench-tracing-on', 'tracing-on', env.configPath, {
      OTEL_EXPORTER_OTLP_ENDPOINT: jaeger.otlpEndpoint,
      TEAMRUN_WORKFLOW_BUNDLE: otelBundle,
    });
    const samples: Array<{ round: number; off: number; on: number; ratio: number }> = [];
    // One warm-up run each, not counted: the first run of a worker pays for its caches.
    await tasksPerSecond(env, off, Math.min(n, 100), -1);
    await tasksPerSecond(env, on, Math.min(n, 100), -1);
    for (let round = 0; round < rounds; round++) {
      // Alternating which goes first, so a drift in the machine's load falls on both alike.
      const first = round % 2 === 0 ? off : on;
      const second = first === off ? on : off;
      const a = await tasksPerSecond(env, first, n, round);
      const b = await tasksPerSecond(env, second, n, round);
      const [offTps, onTps] = first === off ? [a, b] : [b, a];
      samples.push({ round, off: offTps, on: onTps, ratio: onTps / offTps });
      log(`round ${round + 1}/${rounds}: off ${offTps.toFixed(1)} tasks/s, on ${onTps.toFixed(1)} tasks/s`);
    }
    await Promise.all([off.stop(), on.stop()]);
    const result = {
      mode,
      n,
      rounds,
      off: median(samples.map((s) => s.off)),
      on: median(samples.map((s) => s.on)),
      ratio: median(samples.map((s) => s.ratio)),
      samples,
    };
    const dir = path.resolve(__dirname, '..', '.bench');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `tracing-${mode}.json`), `${JSON.stringify(result, null, 2)}\n`);
    process.stdout.write(
      `tracing on/off, ${n} noop tasks x ${rounds} rounds: off ${result.off.toFixed(1)} tasks/s, ` +
        `on ${result.on.toFixed(1)} tasks/s, ratio ${result.ratio.toFixed(2)} (target >= 0.9)\n`,
    );
  } finally {
    await jaeger.stop();
    await env.close();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`bench:tracing failed: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
