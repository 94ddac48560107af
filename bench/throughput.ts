import type { WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import type { TeamPlanInput } from '../src/plan/schema';
import { WORKFLOW_TYPE } from '../src/workflows/messages';
import type { BaselineInput } from './baseline-workflow';
import { cpuMs, type BenchEnv, type WorkerProcess } from './env';
import { flatTasks, layeredTasks } from './graphs';
import { chainOf, dependencyLatencies } from './history';
import { HEARTBEAT_RPC, serverRequests } from './metrics';
import { median, summarize, type Summary } from './stats';

export const TEAMMATES = 32;
const TTL_MS = 30_000;

type Tasks = TeamPlanInput['tasks'];

/** One workflow that ran the graph: how long it took and what its history holds. */
export interface Sample {
  /** teamRun; the same `runTask` in a bare fan-out (baseline); a trivial activity in a bare fan-out (bare). */
  workflow: 'teamRun' | 'baseline' | 'bare';
  graph: string;
  n: number;
  wallMs: number;
  tasksPerSecond: number;
  runs: number;
  events: number;
  eventsPerTask: number;
  maxRunEvents: number;
  /** CPU the worker process and the dev server used per task during the run. */
  workerCpuMsPerTask: number;
  serverCpuMsPerTask: number;
  /** Heartbeat RPCs the server served during the run. */
  heartbeatRpcs: number;
  dependency: { toScheduled: number[]; toStarted: number[] };
}

export interface ThroughputResult {
  graph: string;
  n: number;
  teamRun: {
    tasksPerSecond: number;
    eventsPerTask: number;
    runs: number;
    maxRunEvents: number;
    workerCpuMsPerTask: number;
    serverCpuMsPerTask: number;
  };
  baseline: { tasksPerSecond: number; eventsPerTask: number; workerCpuMsPerTask: number; serverCpuMsPerTask: number };
  /** Median over rounds of teamRun tasks/s / baseline tasks/s. */
  ratio: number;
  roundRatios: number[];
  eventsPerTaskDelta: number;
  /** Against the bare trivial activity (flat graph only): median of the rounds' ratios, and events per task. */
  bare?: {
    tasksPerSecond: number;
    eventsPerTask: number;
    ratio: number;
    roundRatios: number[];
    eventsPerTaskDelta: number;
    workerCpuMsPerTask: number;
    serverCpuMsPerTask: number;
  };
  /** Heartbeat RPCs per task, teamRun's attempts. */
  heartbeatRpcsPerTask: number;
  /** Last dependency completed -> dependent attempt scheduled / started (layered graphs only). */
  dependencyLatency?: {
    teamRun: { toScheduled: Summary; toStarted: Summary };
    baseline: { toScheduled: Summary; toStarted: Summary };
  };
  samples: Sample[];
}

/** The graphs of benchmark (1): N independent tasks, and N tasks in layers as wide as the teammates. */
export function throughputGraphs(n: number): Array<{ name: string; tasks: Tasks }> {
  return [
    { name: 'flat', tasks: flatTasks(n) },
    { name: 'layered', tasks: layeredTasks(n, [TEAMMATES], 2) },
  ];
}

/**
 * Benchmarks (1)-(3): each graph through `teamRun` and through the bare baseline on the same
 * worker, `rounds` rounds of one of each, back to back (the order alternates between rounds, so
 * a machine getting busier or quieter does not favour either). The ratio is the median of the
 * rounds' ratios: each compares two runs measured moments apart.
 */
export async function measureThroughput(
  env: BenchEnv,
  worker: WorkerProcess,
  n: number,
  rounds: number,
  log: (line: string) => void,
) {
  const results: ThroughputResult[] = [];
  for (const graph of throughputGraphs(n)) {
    const samples: Sample[] = [];
    for (let round = 0; round < rounds; round++) {
      // Interleaved: every round runs each workflow once, in an order that rotates from round to round.
      const all: Sample['workflow'][] =
        graph.name === 'flat' ? ['bare', 'baseline', 'teamRun'] : ['baseline', 'teamRun'];
      const order = [...all.slice(round % all.length), ...all.slice(0, round % all.length)];
      for (const workflow of order) {
        const sample = await runOnce(env, worker, workflow, graph.name, graph.tasks, round);
        log(
          `  ${graph.name} ${workflow} round ${round + 1}: ${sample.tasksPerSecond.toFixed(1)} tasks/s, ` +
            `${sample.eventsPerTask.toFixed(2)} events/task, CPU/task ${sample.workerCpuMsPerTask.toFixed(2)} ms worker, ` +
            `${sample.serverCpuMsPerTask.toFixed(2)} ms server, ${sample.runs} run(s), ${sample.heartbeatRpcs} heartbeat RPCs`,
        );
        samples.push(sample);
      }
    }
    results.push(summarizeGraph(graph.name, n, samples));
  }
  return results;
}

async function runOnce(
  env: BenchEnv,
  worker: WorkerProcess,
  workflow: Sample['workflow'],
  graph: string,
  tasks: Tasks,
  round: number,
): Promise<Sample> {
  const { taskQueue } = worker;
  const workflowId = `bench-${workflow}-${graph}-${round}-${Date.now().toString(36)}`;
  const serverPid = env.server.process.pid!;
  const cpuBefore = { worker: cpuMs(worker.pid), server: cpuMs(serverPid) };
  const heartbeatsBefore = await serverRequests(env.metricsUrl, HEARTBEAT_RPC);
  const started = Date.now();
  let handle: WorkflowHandleWithFirstExecutionRunId;
  if (workflow === 'teamRun') {
    const plan: TeamPlanInput = { name: `bench-${graph}`, teammates: TEAMMATES, lease: { ttlMs: TTL_MS }, tasks };
    handle = await env.client.workflow.start(WORKFLOW_TYPE, { taskQueue, workflowId, args: [plan] });
  } else {
    const index = new Map(tasks.map((t, i) => [t.key, i]));
    const input: BaselineInput = {
      keys: tasks.map((t) => t.key),
      concurrency: TEAMMATES,
      ttlMs: TTL_MS,
      dependsOn: tasks.map((t) => (t.dependsOn ?? []).map((d) => index.get(d)!)),
    };
    handle = await env.client.workflow.start(workflow === 'bare' ? 'bareRun' : 'baselineRun', {
      taskQueue,
      workflowId,
      args: [input],
    });
  }
  await handle.result();
  const wallMs = Date.now() - started;
  const cpu = { worker: cpuMs(worker.pid) - cpuBefore.worker, server: cpuMs(serverPid) - cpuBefore.server };
  const heartbeatRpcs = (await serverRequests(env.metricsUrl, HEARTBEAT_RPC)) - heartbeatsBefore;
  const runs = await chainOf(env.client, workflowId, handle.firstExecutionRunId);
  const events = runs.reduce((sum, run) => sum + run.events, 0);
  return {
    workflow,
    graph,
    n: tasks.length,
    wallMs,
    tasksPerSecond: (tasks.length * 1000) / wallMs,
    runs: runs.length,
    events,
    eventsPerTask: events / tasks.length,
    maxRunEvents: Math.max(...runs.map((r) => r.events)),
    workerCpuMsPerTask: cpu.worker / tasks.length,
    serverCpuMsPerTask: cpu.server / tasks.length,
    heartbeatRpcs,
    dependency: dependencyLatencies(runs, new Map(tasks.map((t) => [t.key, t.dependsOn ?? []]))),
  };
}

function summarizeGraph(graph: string, n: number, samples: Sample[]): ThroughputResult {
  const of = (workflow: Sample['workflow']) => samples.filter((s) => s.workflow === workflow);
  const team = of('teamRun');
  const base = of('baseline');
  const bare = of('bare');
  const tps = (list: Sample[]) => median(list.map((s) => s.tasksPerSecond));
  const ept = (list: Sample[]) => median(list.map((s) => s.eventsPerTask));
  const cpu = (list: Sample[]) => ({
    workerCpuMsPerTask: median(list.map((s) => s.workerCpuMsPerTask)),
    serverCpuMsPerTask: median(list.map((s) => s.serverCpuMsPerTask)),
  });
  const deps = (list: Sample[]) => ({
    toScheduled: summarize(list.flatMap((s) => s.dependency.toScheduled)),
    toStarted: summarize(list.flatMap((s) => s.dependency.toStarted)),
  });
  const layered = team.some((s) => s.dependency.toScheduled.length > 0);
  const roundRatios = team.map((t, round) => t.tasksPerSecond / base[round].tasksPerSecond);
  const bareRatios = bare.length ? team.map((t, round) => t.tasksPerSecond / bare[round].tasksPerSecond) : [];
  return {
    graph,
    n,
    teamRun: {
      tasksPerSecond: tps(team),
      eventsPerTask: ept(team),
      runs: Math.max(...team.map((s) => s.runs)),
      maxRunEvents: Math.max(...team.map((s) => s.maxRunEvents)),
      ...cpu(team),
    },
    baseline: { tasksPerSecond: tps(base), eventsPerTask: ept(base), ...cpu(base) },
    ratio: median(roundRatios),
    roundRatios,
    eventsPerTaskDelta: ept(team) - ept(base),
    ...(bare.length
      ? {
          bare: {
            tasksPerSecond: tps(bare),
            eventsPerTask: ept(bare),
            ratio: median(bareRatios),
            roundRatios: bareRatios,
            eventsPerTaskDelta: ept(team) - ept(bare),
            ...cpu(bare),
          },
        }
      : {}),
    heartbeatRpcsPerTask: median(team.map((s) => s.heartbeatRpcs / s.n)),
    ...(layered ? { dependencyLatency: { teamRun: deps(team), baseline: deps(base) } } : {}),
    samples: samples.map((s) => ({ ...s, dependency: { toScheduled: [], toStarted: [] } })),
  };
}
