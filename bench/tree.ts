import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import type { RunResult } from '../src/contract';
import type { TeamPlanInput } from '../src/plan/schema';
import { WORKFLOW_TYPE } from '../src/workflows/messages';
import { spawnWorker, type BenchEnv } from './env';

/**
 * Benchmark (12): many tasks under one root (issue 40). `children` team tasks, each a child run of `tasksPerChild`
 * noop tasks, all on one worker; against the same child plans run one after the other as top-level runs.
 *
 * Each child's noop tasks are added by its own spawner tasks (a shell task printing `::teamrun-tasks::` with up to
 * 1,000 tasks, the most one attempt may add): a plan carrying 100,000 tasks inline cannot start, its JSON is past
 * `PLAN_LIMITS.maxPlanBytes` (1.5 MiB, src/plan/limits.ts) at about 40 bytes a task, and a run's packed plan past
 * `maxPackedPlanBytes` (640 KiB). A child's tasks therefore live in the child's history and state, never in the
 * root's plan.
 */
export interface TreeShape {
  children: number;
  tasksPerChild: number;
  /** Children running at once (the root's teammates). */
  rootTeammates: number;
  /** Each child's (and each flat run's) teammates. */
  childTeammates: number;
}

export interface TreeSample {
  /** `tree`: one root; `flat`: the same child plans as sequential top-level runs. */
  layout: 'tree' | 'flat';
  /** The noop tasks (spawners not counted). */
  tasks: number;
  spawners: number;
  workflows: number;
  /** Workflow executions, continue-as-new included. */
  executions: number;
  /** Root started -> root closed (tree); first run started -> last run closed (flat). */
  wallMs: number;
  tasksPerSecond: number;
  events: number;
  historyBytes: number;
  eventsPerTask: number;
  historyBytesPerTask: number;
  workerPeakRssMiB: number;
  status: string;
  succeeded: number;
}

export interface TreeResult {
  shape: TreeShape;
  tree: TreeSample;
  flat: TreeSample;
}

export const SPAWN_MAX = 1_000;

/** The plan of one child (or one flat run): spawners that add its noop tasks, up to 1,000 each. */
export function childPlan(env: BenchEnv, name: string, shape: TreeShape): TeamPlanInput {
  const spawners = Math.ceil(shape.tasksPerChild / SPAWN_MAX);
  const tasks = Array.from({ length: spawners }, (_, s) => {
    const count = Math.min(SPAWN_MAX, shape.tasksPerChild - s * SPAWN_MAX);
    const file = path.join(env.dir, `tree-spawn-${count}-${s}.txt`);
    const added = Array.from({ length: count }, (_, j) => ({ key: `s${s}-${j}`, executor: { kind: 'noop' } }));
    writeFileSync(file, `::teamrun-tasks::${JSON.stringify({ tasks: added })}\n`);
    return { key: `spawn-${s}`, allowSpawn: true, executor: { kind: 'shell' as const, command: `cat ${file}` } };
  });
  return { name, teammates: shape.childTeammates, awaitAdjudication: false, tasks };
}

/** The root's plan: one team task per child, each child's plan `childPlan`'s. */
export function treePlan(env: BenchEnv, name: string, shape: TreeShape): TeamPlanInput {
  return {
    name,
    teammates: shape.rootTeammates,
    awaitAdjudication: false,
    tasks: Array.from({ length: shape.children }, (_, i) => ({
      key: `c${i}`,
      executor: { kind: 'team', plan: childPlan(env, `child-${i}`, shape) },
    })) as TeamPlanInput['tasks'],
  };
}

/**
 * Every execution of a workflow id's chain (continue-as-new included), first to last, each with its description and
 * its whole history.
 */
export async function* executionsOf(client: Client, workflowId: string) {
  let runId: string | undefined;
  let first = true;
  for (;;) {
    const handle = client.workflow.getHandle(workflowId, runId);
    const described = await handle.describe();
    const firstRunId = described.raw.workflowExecutionInfo?.firstRunId;
    if (first && runId === undefined && firstRunId && firstRunId !== described.runId) {
      // Start from the first execution: the id's latest is the chain's end.
      runId = firstRunId;
      continue;
    }
    first = false;
    const history = await handle.fetchHistory();
    yield { described, history };
    const next = history.events?.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId;
    if (!next) return;
    runId = next;
  }
}

/** Events and bytes of a workflow id's whole chain of executions (continue-as-new included). */
async function historyOf(client: Client, workflowId: string) {
  let events = 0;
  let bytes = 0;
  let executions = 0;
  for await (const { described } of executionsOf(client, workflowId)) {
    executions += 1;
    events += described.historyLength;
    bytes += described.historySize ?? 0;
  }
  return { events, bytes, executions };
}

async function sampleOf(
  client: Client,
  layout: 'tree' | 'flat',
  shape: TreeShape,
  ids: string[],
  wallMs: number,
  rss: number,
  status: string,
  succeeded: number,
): Promise<TreeSample> {
  const tasks = shape.children * shape.tasksPerChild;
  let events = 0;
  let bytes = 0;
  let executions = 0;
  for (const id of ids) {
    const h = await historyOf(client, id);
    events += h.events;
    bytes += h.bytes;
    executions += h.executions;
  }
  return {
    layout,
    tasks,
    spawners: shape.children * Math.ceil(shape.tasksPerChild / SPAWN_MAX),
    workflows: ids.length,
    executions,
    wallMs,
    tasksPerSecond: (tasks * 1000) / wallMs,
    events,
    historyBytes: bytes,
    eventsPerTask: events / tasks,
    historyBytesPerTask: bytes / tasks,
    workerPeakRssMiB: rss,
    status,
    succeeded,
  };
}

/** The noop tasks a run (or a child, by its output's stats) completed: its stats less its spawners. */
const noopsOf = (result: Pick<RunResult, 'stats'>, spawners: number) => result.stats.succeeded - spawners;

async function measureTree(env: BenchEnv, shape: TreeShape, log: (line: string) => void): Promise<TreeSample> {
  const stamp = Date.now().toString(36);
  const taskQueue = `bench-tree-${stamp}`;
  const worker = await spawnWorker(env, taskQueue, `tree-worker-${stamp}`);
  try {
    const plan = treePlan(env, 'bench-tree', shape);
    const workflowId = `bench-tree-${stamp}`;
    const started = Date.now();
    const handle = await env.client.workflow.start(WORKFLOW_TYPE, { taskQueue, workflowId, args: [plan] });
    const result = (await handle.result()) as RunResult;
    const root = await handle.describe();
    // From the first run's start: after a continue-as-new `describe()` is the last run's alone.
    const wallMs = (root.closeTime?.getTime() ?? Date.now()) - (await firstStart(env.client, handle));
    log(`  tree: ${result.status} in ${(wallMs / 1000).toFixed(1)} s (client saw ${Date.now() - started} ms)`);
    const childIds = result.tasks.map(
      (t) => (t.output as { run?: string } | undefined)?.run ?? `${workflowId}/${t.key}#1`,
    );
    const spawnersPerChild = Math.ceil(shape.tasksPerChild / SPAWN_MAX);
    let succeeded = 0;
    for (const t of result.tasks) {
      const stats = (t.output as { stats?: RunResult['stats'] } | undefined)?.stats;
      if (stats) succeeded += noopsOf({ stats }, spawnersPerChild);
    }
    return await sampleOf(
      env.client,
      'tree',
      shape,
      [workflowId, ...childIds],
      wallMs,
      worker.peakRssMiB(),
      result.status,
      succeeded,
    );
  } finally {
    await worker.stop();
  }
}

async function measureFlat(env: BenchEnv, shape: TreeShape, log: (line: string) => void): Promise<TreeSample> {
  const stamp = Date.now().toString(36);
  const taskQueue = `bench-flat-${stamp}`;
  const worker = await spawnWorker(env, taskQueue, `flat-worker-${stamp}`);
  try {
    const ids: string[] = [];
    let first = Number.POSITIVE_INFINITY;
    let last = 0;
    let succeeded = 0;
    let failed = 0;
    const spawners = Math.ceil(shape.tasksPerChild / SPAWN_MAX);
    for (let i = 0; i < shape.children; i++) {
      const workflowId = `bench-flat-${stamp}-${i}`;
      const handle = await env.client.workflow.start(WORKFLOW_TYPE, {
        taskQueue,
        workflowId,
        args: [childPlan(env, `flat-${i}`, shape)],
      });
      const result = (await handle.result()) as RunResult;
      const described = await handle.describe();
      first = Math.min(first, await firstStart(env.client, handle));
      last = Math.max(last, described.closeTime?.getTime() ?? Date.now());
      ids.push(workflowId);
      succeeded += noopsOf(result, spawners);
      if (result.status !== 'succeeded') failed += 1;
    }
    const wallMs = last - first;
    log(`  flat: ${shape.children} runs in ${(wallMs / 1000).toFixed(1)} s, ${failed} not succeeded`);
    const status = failed ? `${failed} run(s) not succeeded` : 'succeeded';
    return await sampleOf(env.client, 'flat', shape, ids, wallMs, worker.peakRssMiB(), status, succeeded);
  } finally {
    await worker.stop();
  }
}

/** The tree, then the same work as sequential flat runs, each on a fresh worker of its own. */
export async function measureTreeShape(
  env: BenchEnv,
  shape: TreeShape,
  log: (line: string) => void,
): Promise<TreeResult> {
  log(`(12) tree: ${shape.children} children x ${shape.tasksPerChild} noop tasks under one root, one worker`);
  const tree = await measureTree(env, shape, log);
  log(`(12) flat: the same as ${shape.children} sequential runs of ${shape.tasksPerChild}`);
  const flat = await measureFlat(env, shape, log);
  return { shape, tree, flat };
}

export function formatTree(results: ReadonlyArray<TreeResult>): string {
  const f = (n: number, digits = 1) => n.toFixed(digits);
  const lines = [
    '| shape | layout | wall | tasks/s | workflows (executions) | events/task | history B/task | worker peak RSS MiB | status (noop tasks succeeded) |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of results) {
    for (const s of [r.tree, r.flat]) {
      lines.push(
        `| ${r.shape.children} x ${r.shape.tasksPerChild} | ${s.layout} | ${f(s.wallMs / 1000)} s | ${f(s.tasksPerSecond)} | ` +
          `${s.workflows} (${s.executions}) | ${f(s.eventsPerTask, 2)} | ${f(s.historyBytesPerTask, 0)} | ` +
          `${f(s.workerPeakRssMiB, 0)} | ${s.status} (${s.succeeded}) |`,
      );
    }
  }
  return lines.join('\n');
}

/** When the workflow id's first run started (its `describe()` after a continue-as-new is the last run's). */
export async function firstStart(client: Client, handle: { workflowId: string; firstExecutionRunId: string }) {
  return (
    await client.workflow.getHandle(handle.workflowId, handle.firstExecutionRunId).describe()
  ).startTime.getTime();
}
