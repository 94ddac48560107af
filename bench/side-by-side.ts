import { readdirSync, readFileSync } from 'node:fs';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import type { TeamPlanInput } from '../src/plan/schema';
import { WORKFLOW_TYPE } from '../src/workflows/messages';
import type { BaselineInput } from './baseline-workflow';
import {
  cpuMs,
  sleep,
  spawnBareWorker,
  spawnCliWorker,
  startBenchEnv,
  statCpuMs,
  type BenchEnv,
  type WorkerProcess,
} from './env';
import { flatTasks } from './graphs';
import { median, takeNumberOption } from './stats';

/**
 * `npx tsx bench/side-by-side.ts [--noop N] [--rounds R] [--pause-ms MS] [WORKER...]` (after `npm run build`): a
 * plain task's worker CPU against the truly bare worker's, with the machine's drift taken out. The cost section
 * (cost.ts) runs its variants one after another, so a host that slows down between two runs moves their ratio: on this
 * project's 2-core VM one session's rounds read 0.99-1.35. Here every worker runs its own run of N noop tasks at the
 * same moment, so whatever slows the machine slows all of them alike, and the ratio of each round is read within it.
 *
 * WORKER is `teamrun` (the built CLI, dist/), `teamrun@DIR` (another build: a copy of dist/ inside the checkout), with
 * node flags after a colon (`teamrun:--max-semi-space-size=32`). Default: `teamrun teamrun`, two alike, whose
 * difference shows the method's own noise. The bare worker (bench/bare-worker.ts) always runs, as the baseline.
 * Prints each round's CPU per task and its ratios, then each worker's median and spread, and its CPU per task by
 * thread (main: activities and the SDK's bridge; node: workflow threads and V8's helpers; tokio: the SDK's core).
 */
interface Side {
  name: string;
  kind: 'bare' | 'teamrun';
  worker: WorkerProcess;
  /** CPU per task of each counted round, ms. */
  rounds: number[];
  /** CPU of the counted rounds by thread name, ms. */
  threads: Map<string, number>;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const option = (name: string, fallback: number) => takeNumberOption(args, name, fallback);
  const n = option('--noop', 2_000);
  const rounds = option('--rounds', 8);
  const pauseMs = option('--pause-ms', 0);
  const specs = args.length ? args : ['teamrun', 'teamrun'];
  specs.forEach(parseWorker);
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const env = await startBenchEnv();
  const sides: Side[] = [];
  try {
    sides.push(await side(env, null, 0));
    for (const [i, spec] of specs.entries()) sides.push(await side(env, spec, i + 1));
    // One uncounted warm-up round, as the cost section has.
    for (let round = 0; round <= rounds; round++) {
      const before = sides.map((s) => ({ cpu: cpuMs(s.worker.pid), threads: threadCpu(s.worker.pid) }));
      await Promise.all(sides.map((s) => runOne(env, s, n, round)));
      const perTask = sides.map((s, i) => (cpuMs(s.worker.pid) - before[i].cpu) / n);
      const label = round === 0 ? 'warm-up' : `round ${round}`;
      process.stdout.write(
        `${label}: ${sides.map((s, i) => `${s.name} ${perTask[i].toFixed(3)} ms (${ratio(perTask[i], perTask[0])})`).join(', ')}\n`,
      );
      if (round > 0) {
        sides.forEach((s, i) => {
          s.rounds.push(perTask[i]);
          for (const [thread, ms] of threadCpu(s.worker.pid))
            s.threads.set(thread, (s.threads.get(thread) ?? 0) + ms - (before[i].threads.get(thread) ?? 0));
        });
      }
      if (pauseMs > 0 && round < rounds) await sleep(pauseMs);
    }
    report(sides, n);
  } finally {
    await Promise.all(sides.map((s) => s.worker.stop()));
    await env.close();
  }
}

/** A WORKER argument: `teamrun` or `teamrun@DIR`, node flags after a colon; anything else is refused before a start. */
function parseWorker(spec: string): { dist?: string; nodeArgs: string[] } {
  const [which, ...flags] = spec.split(':');
  const [name, dist] = which.split('@');
  if (name !== 'teamrun' || dist === '') {
    throw new Error(`a WORKER is teamrun or teamrun@<copy of dist/>, with node flags after a colon; got "${spec}"`);
  }
  return { ...(dist ? { dist } : {}), nodeArgs: flags.join(':').split(' ').filter(Boolean) };
}

async function side(env: BenchEnv, spec: string | null, i: number): Promise<Side> {
  const queue = `side-by-side-${i}`;
  if (spec === null) {
    return {
      name: 'bare',
      kind: 'bare',
      worker: await spawnBareWorker(env, queue, queue),
      rounds: [],
      threads: new Map(),
    };
  }
  const { dist, nodeArgs } = parseWorker(spec);
  const worker = await spawnCliWorker(env, queue, queue, nodeArgs, dist);
  return { name: `${i}:${spec}`, kind: 'teamrun', worker, rounds: [], threads: new Map() };
}

async function runOne(env: BenchEnv, s: Side, n: number, round: number): Promise<void> {
  const tasks = flatTasks(n);
  const workflowId = `side-by-side-${s.worker.taskQueue}-${round}-${Date.now().toString(36)}`;
  if (s.kind === 'bare') {
    const input: BaselineInput = { keys: tasks.map((t) => t.key), concurrency: 32, ttlMs: 30_000 };
    await (
      await env.client.workflow.start('bareRun', { taskQueue: s.worker.taskQueue, workflowId, args: [input] })
    ).result();
    return;
  }
  const plan: TeamPlanInput = { name: 'side-by-side', teammates: 32, lease: { ttlMs: 30_000 }, tasks };
  const handle = await env.client.workflow.start(WORKFLOW_TYPE, {
    taskQueue: s.worker.taskQueue,
    workflowId,
    args: [plan],
  });
  const result = (await handle.result()) as { status: string };
  if (result.status !== 'succeeded') throw new Error(`${s.name}'s run ${workflowId} ended ${result.status}`);
}

function report(sides: Side[], n: number): void {
  const bare = sides[0].rounds;
  for (const s of sides) {
    const ratios = s.rounds.map((ms, i) => ms / bare[i]);
    const mean = ratios.reduce((sum, r) => sum + r, 0) / ratios.length;
    const sd = Math.sqrt(ratios.reduce((sum, r) => sum + (r - mean) ** 2, 0) / Math.max(1, ratios.length - 1));
    const sorted = [...ratios].sort((a, b) => a - b);
    const byThread = [...s.threads]
      .filter(([, ms]) => ms > 0)
      .sort((a, b) => b[1] - a[1])
      .map(([thread, ms]) => `${thread} ${(ms / n / s.rounds.length).toFixed(3)}`);
    process.stdout.write(
      `${s.name}: ${median(s.rounds).toFixed(3)} ms per task (median); ratio to bare median ${median(ratios).toFixed(3)}, ` +
        `mean ${mean.toFixed(3)}, sd ${sd.toFixed(3)} [${sorted.map((r) => r.toFixed(2)).join(' ')}]; ` +
        `by thread, ms per task: ${byThread.join(', ')}\n`,
    );
  }
}

const ratio = (ms: number, bare: number) => (ms / bare).toFixed(3);

/** CPU (user + system) so far of each of a process's threads, summed by thread name (the main thread as `main`), ms. */
function threadCpu(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // the thread ended since the listing
    }
    const name = tid === String(pid) ? 'main' : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    // A pool's threads are numbered (`tokio-runtime-w`): summed as one.
    const key = name.replace(/[0-9]+$/, '');
    out.set(key, (out.get(key) ?? 0) + statCpuMs(stat));
  }
  return out;
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`side by side failed: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
