import type { WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import type { TeamPlanInput } from '../src/plan/schema';
import { WORKFLOW_TYPE } from '../src/workflows/messages';
import type { BaselineInput } from './baseline-workflow';
import type { BenchEnv } from './env';
import { flatTasks, layeredTasks } from './graphs';
import { chainOf, dependencyLatencies } from './history';
import { median, summarize, type Summary } from './stats';

export const TEAMMATES = 32;
const TTL_MS = 30_000;

type Tasks = TeamPlanInput['tasks'];

/** One workflow that ran the graph: how long it took and what its history holds. */
export interface Sample {
  workflow: 'teamRun' | 'baseline';
  graph: string;
  n: number;
  wallMs: number;
  tasksPerSecond: number;
  runs: number;
  events: number;
  eventsPerTask: number;
  maxRunEvents: number;
  dependency: { toScheduled: number[]; toStarted: number[] };
}

export interface ThroughputResult {
  graph: string;
  n: number;
  teamRun: { tasksPerSecond: number; eventsPerTask: number; runs: number; maxRunEvents: number };
  baseline: { tasksPerSecond: number; eventsPerTask: number };
  ratio: number;
  eventsPerTaskDelta: number;
  /** Last dependency completed -> dependent attempt scheduled / started (layered graphs only). */
  dependencyLatency?: { teamRun: { toScheduled: Summary; toStarted: Summary }; baseline: { toScheduled: Summary; toStarted: Summary } };
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
 * Benchmarks (1)-(3): each graph through `teamRun` and through the bare baseline, alternating
 * (baseline, teamRun, baseline, teamRun, ...) on the same worker, `rounds` times.
 */
export async function measureThroughput(env: BenchEnv, taskQueue: string, n: number, rounds: number, log: (line: string) => void) {
  const results: ThroughputResult[] = [];
  for (const graph of throughputGraphs(n)) {
    const samples: Sample[] = [];
    for (let round = 0; round < rounds; round++) {
      for (const workflow of ['baseline', 'teamRun'] as const) {
        const sample = await runOnce(env, taskQueue, workflow, graph.name, graph.tasks, round);
        log(`  ${graph.name} ${workflow} round ${round + 1}: ${sample.tasksPerSecond.toFixed(1)} tasks/s, ${sample.eventsPerTask.toFixed(2)} events/task, ${sample.runs} run(s)`);
        samples.push(sample);
      }
    }
    results.push(summarizeGraph(graph.name, n, samples));
  }
  return results;
}

async function runOnce(env: BenchEnv, taskQueue: string, workflow: Sample['workflow'], graph: string, tasks: Tasks, round: number): Promise<Sample> {
  const workflowId = `bench-${workflow}-${graph}-${round}-${Date.now().toString(36)}`;
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
    handle = await env.client.workflow.start('baselineRun', { taskQueue, workflowId, args: [input] });
  }
  await handle.result();
  const wallMs = Date.now() - started;
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
    dependency: dependencyLatencies(runs, new Map(tasks.map((t) => [t.key, t.dependsOn ?? []]))),
  };
}

function summarizeGraph(graph: string, n: number, samples: Sample[]): ThroughputResult {
  const of = (workflow: Sample['workflow']) => samples.filter((s) => s.workflow === workflow);
  const team = of('teamRun');
  const base = of('baseline');
  const tps = (list: Sample[]) => median(list.map((s) => s.tasksPerSecond));
  const ept = (list: Sample[]) => median(list.map((s) => s.eventsPerTask));
  const deps = (list: Sample[]) => ({
    toScheduled: summarize(list.flatMap((s) => s.dependency.toScheduled)),
    toStarted: summarize(list.flatMap((s) => s.dependency.toStarted)),
  });
  const layered = team.some((s) => s.dependency.toScheduled.length > 0);
  return {
    graph,
    n,
    teamRun: {
      tasksPerSecond: tps(team),
      eventsPerTask: ept(team),
      runs: Math.max(...team.map((s) => s.runs)),
      maxRunEvents: Math.max(...team.map((s) => s.maxRunEvents)),
    },
    baseline: { tasksPerSecond: tps(base), eventsPerTask: ept(base) },
    ratio: tps(team) / tps(base),
    eventsPerTaskDelta: ept(team) - ept(base),
    ...(layered ? { dependencyLatency: { teamRun: deps(team), baseline: deps(base) } } : {}),
    samples: samples.map((s) => ({ ...s, dependency: { toScheduled: [], toStarted: [] } })),
  };
}

