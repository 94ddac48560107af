import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { TeamPlanInput } from '../src/plan/schema';
import { WORKFLOW_TYPE } from '../src/workflows/messages';
import type { BaselineInput } from './baseline-workflow';
import { spawnBareWorker, spawnCliWorker, type BenchEnv } from './env';
import { flatTasks } from './graphs';

/** V8's .cpuprofile, the parts read here. */
interface CpuProfile {
  /** Microseconds, on a clock all of a process's threads share. */
  startTime: number;
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string }; children?: number[] }>;
  samples: number[];
  timeDeltas: number[];
}

export interface WorkerProfile {
  tasks: number;
  /** JS main-thread time per task by where it went (V8's sampling profiler; the SDK's Rust core threads are not in it). */
  msPerTask: Record<string, number>;
  /** The functions with the most self time, ms per task. */
  top: Array<{ name: string; msPerTask: number }>;
}

/**
 * Profiles `teamrun worker` (the built CLI, `node --cpu-prof`) through one run of `n` noop tasks:
 * where its main thread's time goes per task, the run's workflow activations against the
 * `runTask` activity against the SDK and Node around them.
 */
export async function profileWorker(
  env: BenchEnv,
  n: number,
  which: 'teamRun' | 'bare' = 'teamRun',
): Promise<WorkerProfile> {
  // BENCH_PROFILE_DIR keeps the profile (open it in Chrome's DevTools); by default it goes with the bench's temp dir.
  const dir = mkdtempSync(path.join(process.env.BENCH_PROFILE_DIR ?? env.dir, `cpu-prof-${which}-`));
  const spawnedAt = Date.now();
  const profiling = ['--cpu-prof', '--cpu-prof-dir', dir];
  const worker =
    which === 'teamRun'
      ? await spawnCliWorker(env, 'cost-profile', 'cost-profile', profiling)
      : await spawnBareWorker(env, 'cost-profile-bare', 'cost-profile-bare', profiling);
  let window: [number, number];
  try {
    const tasks = flatTasks(n);
    const workflowId = `cost-profile-${which}-${Date.now().toString(36)}`;
    const plan: TeamPlanInput = { name: 'profile', teammates: 32, lease: { ttlMs: 30_000 }, tasks };
    const bare: BaselineInput = { keys: tasks.map((t) => t.key), concurrency: 32, ttlMs: 30_000 };
    const handle =
      which === 'teamRun'
        ? await env.client.workflow.start(WORKFLOW_TYPE, { taskQueue: worker.taskQueue, workflowId, args: [plan] })
        : await env.client.workflow.start('bareRun', { taskQueue: worker.taskQueue, workflowId, args: [bare] });
    const startedAt = Date.now();
    await handle.result();
    // Only the run counts, not the worker's start (loading modules) nor its shutdown.
    window = [(startedAt - spawnedAt) * 1000, (Date.now() - spawnedAt) * 1000];
  } finally {
    await worker.stop();
  }
  // One file per thread, the main thread's first: the SDK runs workflow activations in worker threads.
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort();
  if (!files.length) throw new Error(`teamrun worker wrote no CPU profile in ${dir}`);
  const profiles = files.map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as CpuProfile);
  return summarizeProfiles(profiles, n, window);
}

/** Where a frame's code lives, the first of these rules that matches, from the sampled frame up. */
const PLACES: Array<[string, (url: string) => boolean]> = [
  ['teamRun workflow code (src/workflows, src/team, in the bundle)', (url) => /workflow-bundle/.test(url)],
  ['runTask activity (src/activities)', (url) => /\/dist[^/]*\/activities\//.test(url)],
  ['teamrun worker (config, logging, stop queue, gateway)', (url) => /\/dist[^/]*\/(worker|config|codec)\//.test(url)],
  ['Temporal SDK (worker, proto, payload conversion)', (url) => /@temporalio|protobufjs|long\//.test(url)],
];

/**
 * Sums the profiles of a process's threads (the first is the main thread's) over `window`, in
 * microseconds since the main thread's profile began.
 */
export function summarizeProfiles(profiles: CpuProfile[], tasks: number, window: [number, number]): WorkerProfile {
  const byPlace = new Map<string, number>();
  const self = new Map<string, number>();
  profiles.forEach((profile, i) =>
    addProfile(profile, i === 0 ? '' : 'workflow thread: ', profile.startTime - profiles[0].startTime, window, {
      byPlace,
      self,
    }),
  );
  byPlace.delete('idle');
  const top = [...self]
    .filter(([name]) => !name.includes('(idle)'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, 15)
    .map(([name, ms]) => ({ name, msPerTask: ms / tasks }));
  return {
    tasks,
    msPerTask: Object.fromEntries([...byPlace].sort((a, b) => b[1] - a[1]).map(([k, ms]) => [k, ms / tasks])),
    top,
  };
}

function addProfile(
  profile: CpuProfile,
  thread: string,
  offset: number,
  window: [number, number],
  into: { byPlace: Map<string, number>; self: Map<string, number> },
): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const placeOf = new Map<number, string>();
  const place = (id: number): string => {
    const known = placeOf.get(id);
    if (known) return known;
    const { functionName, url } = byId.get(id)!.callFrame;
    let found: string | undefined;
    if (functionName === '(garbage collector)') found = 'garbage collection';
    else if (functionName === '(idle)') found = 'idle';
    else found = PLACES.find(([, test]) => test(url))?.[0];
    const up = parent.get(id);
    const rest = thread ? 'SDK sandbox (vm, activation plumbing)' : 'Node and the rest (native, timers, program)';
    const result =
      found === 'idle' ? found : found ? `${thread}${found}` : up === undefined ? `${thread}${rest}` : place(up);
    placeOf.set(id, result);
    return result;
  };
  const { byPlace, self } = into;
  let at = offset;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at < window[0] || at > window[1]) return;
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const where = place(id);
    byPlace.set(where, (byPlace.get(where) ?? 0) + ms);
    const { functionName, url } = byId.get(id)!.callFrame;
    const name = `${thread}${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}`;
    self.set(name, (self.get(name) ?? 0) + ms);
  });
}
