/**
 * `npm run bench:tracing [-- --quick] [-- --phoenix]`: teamRun's throughput with tracing on (every
 * span exported over OTLP/HTTP, protobuf) against tracing off, on the same dev server: two worker
 * processes, each on its own queue, the same flat graph of noop tasks (the worst case: tracing's
 * cost is per attempt and per workflow step, and a noop attempt costs nothing else), rounds
 * alternating. The figure is the median of the rounds' on/off ratios (target >= 0.9); beside it, each worker
 * process's CPU time per task, which a machine's noise moves far less than its throughput.
 *
 * The spans go to a local OTLP receiver that reads and drops them (what teamrun pays, not what a
 * viewer pays to store them: a real deployment's collector is not on the worker's cores); with
 * `--phoenix` they go to Arize Phoenix on the same machine instead, its ingestion included.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { DefaultLogger, Runtime, bundleWorkflowCode } from '@temporalio/worker';
import { startPhoenix } from '../src/devserver/phoenix';
import { freePort } from '../src/devserver/server';
import type { TeamPlanInput } from '../src/plan/schema';
import { WORKFLOW_TYPE } from '../src/workflows/messages';
import { WORKFLOW_TRACING_MODULE } from '../src/worker/tracing';
import { cpuMs, spawnWorker, startBenchEnv, type BenchEnv, type WorkerProcess } from './env';
import { flatTasks } from './graphs';
import { median } from './stats';
import { TEAMMATES } from './throughput';

const SETTINGS = { quick: { n: 200, rounds: 3 }, full: { n: 1_000, rounds: 5 } } as const;
const quiet = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error: console.error };

/** A round on one worker: its throughput, and the worker process's CPU time per task (what a busy machine does not move). */
async function measure(
  env: BenchEnv,
  worker: WorkerProcess,
  n: number,
  round: number,
): Promise<{ tps: number; cpuMsPerTask: number }> {
  const cpuBefore = cpuMs(worker.pid);
  const tps = await tasksPerSecond(env, worker, n, round);
  return { tps, cpuMsPerTask: (cpuMs(worker.pid) - cpuBefore) / n };
}

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

/** An OTLP/HTTP receiver that reads every request whole, answers an empty ExportTraceServiceResponse, and counts. */
async function otlpSink(): Promise<{
  endpoint: string;
  requests: () => number;
  bytes: () => number;
  stop(): Promise<void>;
}> {
  let requests = 0;
  let bytes = 0;
  const server = createServer((req, res) => {
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => {
      requests++;
      res.writeHead(200, { 'Content-Type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => requests,
    bytes: () => bytes,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function main(): Promise<void> {
  const mode = process.argv.includes('--quick') ? 'quick' : 'full';
  const { n, rounds } = SETTINGS[mode];
  const log = (line: string) => process.stderr.write(`${line}\n`);
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const env = await startBenchEnv();
  const phoenix = process.argv.includes('--phoenix')
    ? await startPhoenix({ ports: { http: await freePort(), grpc: await freePort() }, workingDir: env.dir, log })
    : null;
  const sink = phoenix ? null : await otlpSink();
  const collector = phoenix ? phoenix.otlpEndpoint : sink!.endpoint;
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
      OTEL_EXPORTER_OTLP_ENDPOINT: collector,
      TEAMRUN_WORKFLOW_BUNDLE: otelBundle,
    });
    const samples: Array<{
      round: number;
      off: number;
      on: number;
      ratio: number;
      offCpuMs: number;
      onCpuMs: number;
      cpuRatio: number;
    }> = [];
    // One warm-up run each, not counted: the first run of a worker pays for its caches.
    await tasksPerSecond(env, off, Math.min(n, 100), -1);
    await tasksPerSecond(env, on, Math.min(n, 100), -1);
    for (let round = 0; round < rounds; round++) {
      // Alternating which goes first, so a drift in the machine's load falls on both alike.
      const first = round % 2 === 0 ? off : on;
      const second = first === off ? on : off;
      const a = await measure(env, first, n, round);
      const b = await measure(env, second, n, round);
      const [offRun, onRun] = first === off ? [a, b] : [b, a];
      samples.push({
        round,
        off: offRun.tps,
        on: onRun.tps,
        ratio: onRun.tps / offRun.tps,
        offCpuMs: offRun.cpuMsPerTask,
        onCpuMs: onRun.cpuMsPerTask,
        cpuRatio: onRun.cpuMsPerTask / offRun.cpuMsPerTask,
      });
      log(
        `round ${round + 1}/${rounds}: off ${offRun.tps.toFixed(1)} tasks/s, on ${onRun.tps.toFixed(1)} tasks/s; ` +
          `worker CPU off ${offRun.cpuMsPerTask.toFixed(2)} ms/task, on ${onRun.cpuMsPerTask.toFixed(2)} ms/task`,
      );
    }
    await Promise.all([off.stop(), on.stop()]);
    // A ratio is worth nothing if the traced worker exported nothing.
    if (sink && sink.requests() === 0) throw new Error('the traced worker exported no span to the receiver');
    const result = {
      mode,
      collector: phoenix ? 'phoenix' : 'sink',
      ...(sink ? { exportRequests: sink.requests(), exportBytes: sink.bytes() } : {}),
      n,
      rounds,
      off: median(samples.map((s) => s.off)),
      on: median(samples.map((s) => s.on)),
      ratio: median(samples.map((s) => s.ratio)),
      offCpuMs: median(samples.map((s) => s.offCpuMs)),
      onCpuMs: median(samples.map((s) => s.onCpuMs)),
      cpuRatio: median(samples.map((s) => s.cpuRatio)),
      samples,
    };
    const dir = path.resolve(__dirname, '..', '.bench');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `tracing-${mode}.json`), `${JSON.stringify(result, null, 2)}\n`);
    process.stdout.write(
      `tracing on/off, ${n} noop tasks x ${rounds} rounds: off ${result.off.toFixed(1)} tasks/s, ` +
        `on ${result.on.toFixed(1)} tasks/s, ratio ${result.ratio.toFixed(2)} (target >= 0.9; spans to ` +
        `${result.collector}${sink ? `: ${sink.requests()} exports, ${(sink.bytes() / 1e6).toFixed(1)} MB` : ''}); ` +
        `worker CPU per task off ${result.offCpuMs.toFixed(2)} ms, on ${result.onCpuMs.toFixed(2)} ms, ` +
        `on/off ${result.cpuRatio.toFixed(2)}\n`,
    );
  } finally {
    await phoenix?.stop();
    await sink?.stop();
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
