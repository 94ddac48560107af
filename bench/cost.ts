import type {
  WorkflowExecutionDescription,
  WorkflowHandle,
  WorkflowHandleWithFirstExecutionRunId,
} from '@temporalio/client';
import type { History } from '@temporalio/common/lib/proto-utils';
import { temporal } from '@temporalio/proto';
import type { TeamPlanInput } from '../src/plan/schema';
import { WORKFLOW_TYPE } from '../src/workflows/messages';
import type { BaselineInput } from './baseline-workflow';
import { cpuMs, spawnBareWorker, spawnCliWorker, type BenchEnv, type WorkerProcess } from './env';
import { flatTasks } from './graphs';
import { median } from './stats';

/**
 * What a task costs (issue 31), where a noisy machine does not reach: worker CPU, dev server CPU
 * and history bytes per task, teamRun on `teamrun worker` (the built CLI, as users start it)
 * against a bare fan-out of a trivial activity on its own plain worker process, in interleaved
 * rounds. Ratios are medians of the rounds' ratios: each compares two runs measured moments apart.
 */

type Tasks = TeamPlanInput['tasks'];

export interface CostScenario {
  name: string;
  tasks: Tasks;
  teammates: number;
  /** The bare fan-out's input for the same graph (keys, dependencies, what each activity does). */
  bare: Omit<BaselineInput, 'concurrency' | 'ttlMs'>;
}

export interface CostSample {
  workflow: 'teamRun' | 'bare';
  wallMs: number;
  workerCpuMsPerTask: number;
  serverCpuMsPerTask: number;
  historyBytesPerTask: number;
  eventsPerTask: number;
  runs: number;
  /** History bytes per task by event type (the protobuf size of each event). */
  bytesByEvent: Record<string, number>;
}

export interface CostResult {
  scenario: string;
  n: number;
  rounds: number;
  teamRun: Omit<CostSample, 'workflow' | 'bytesByEvent' | 'runs' | 'wallMs'> & { tasksPerSecond: number };
  bare: Omit<CostSample, 'workflow' | 'bytesByEvent' | 'runs' | 'wallMs'> & { tasksPerSecond: number };
  /** teamRun / bare, the median of the rounds' ratios (throughput: bare / teamRun wall time). */
  ratios: { workerCpu: number; serverCpu: number; historyBytes: number; throughput: number };
  roundRatios: { workerCpu: number[]; serverCpu: number[]; historyBytes: number[]; throughput: number[] };
  bytesByEvent: { teamRun: Record<string, number>; bare: Record<string, number> };
  samples: CostSample[];
}

const TTL_MS = 30_000;
const key = (i: number) => `t${String(i).padStart(5, '0')}`;

/** The must-show scenarios: noop tasks, `sleep 100` tasks, and tasks handed 50 KB dependency outputs. */
export function costScenarios(sizes: { noop: number; sleep: number; outputs: number }): CostScenario[] {
  const noop = flatTasks(sizes.noop);
  const sleep = flatTasks(sizes.sleep, { kind: 'sleep', ms: 100 });
  // Half the tasks print a 50 KB output; each of the other half depends on one of them.
  const half = Math.floor(sizes.outputs / 2);
  const produce = `printf '::teamrun-output::"%s"\\n' "$(head -c 51200 /dev/zero | tr '\\0' a)"`;
  const outputs: Tasks = [];
  for (let i = 0; i < half; i++) outputs.push({ key: key(i), executor: { kind: 'shell', command: produce } });
  for (let i = 0; i < half; i++) {
    outputs.push({ key: key(half + i), dependsOn: [key(i)], executor: { kind: 'shell', command: 'true' } });
  }
  const keys = (tasks: Tasks) => tasks.map((t) => t.key);
  return [
    { name: `${sizes.noop} noop`, tasks: noop, teammates: 32, bare: { keys: keys(noop) } },
    { name: `${sizes.sleep} sleep 100 ms`, tasks: sleep, teammates: 32, bare: { keys: keys(sleep), sleepMs: 100 } },
    {
      name: `${half * 2} shell, ${half} of them given a 50 KB dependency output`,
      tasks: outputs,
      teammates: 32,
      bare: {
        keys: keys(outputs),
        dependsOn: outputs.map((_, i) => (i < half ? [] : [i - half])),
        commands: outputs.map((_, i) => (i < half ? `head -c 51200 /dev/zero | tr '\\0' a` : 'true')),
      },
    },
  ];
}

/**
 * Worker processes side by side (each idle while another's run goes): `teamrun worker` and the bare one,
 * `COST_PROCESSES` of each, each pair for two rounds in turn (both orders). Identical processes differ: one
 * of three identical `teamrun worker`s side by side had a median 7% over the other two's (issue 42), so a figure from one
 * process of each side is partly that process's.
 */
export interface CostWorkers {
  team: WorkerProcess[];
  bare: WorkerProcess[];
  stop(): Promise<void>;
}

export const COST_PROCESSES = 2;

export async function startCostWorkers(env: BenchEnv, nodeArgs: string[] = []): Promise<CostWorkers> {
  const team: WorkerProcess[] = [];
  const bare: WorkerProcess[] = [];
  for (let i = 0; i < COST_PROCESSES; i++) {
    const [t, b] = await Promise.all([
      spawnCliWorker(env, `cost-team-${i}`, `cost-team-${i}`, nodeArgs),
      spawnBareWorker(env, `cost-bare-${i}`, `cost-bare-${i}`),
    ]);
    team.push(t);
    bare.push(b);
  }
  const all = [...team, ...bare];
  return { team, bare, stop: () => Promise.all(all.map((w) => w.stop())).then(() => undefined) };
}

export async function measureCost(
  env: BenchEnv,
  workers: CostWorkers,
  scenarios: CostScenario[],
  rounds: number,
  log: (line: string) => void,
): Promise<CostResult[]> {
  const results: CostResult[] = [];
  for (const scenario of scenarios) {
    const samples: CostSample[] = [];
    // One round first on each process that is printed but not counted: a worker's first run of a scenario pays its
    // JIT warm-up (teamrun's larger code more: 1.25x bare in the first round against ~1.15x after, on the same
    // workers), which a long-lived worker pays once, not per run.
    for (let warm = -COST_PROCESSES; warm < 0; warm++) {
      for (const workflow of ['bare', 'teamRun'] as const) {
        const sample = await runOnce(env, workers, scenario, workflow, warm, warm + COST_PROCESSES);
        log(
          `  ${scenario.name} ${workflow} warm-up on process ${warm + COST_PROCESSES + 1} (not counted): ` +
            `CPU/task ${sample.workerCpuMsPerTask.toFixed(2)} ms worker`,
        );
      }
    }
    for (let round = 0; round < rounds; round++) {
      // Interleaved: the order alternates, so a machine getting busier or quieter favours neither; and the processes
      // every two rounds, so that each process runs in both orders.
      const order: CostSample['workflow'][] = round % 2 === 0 ? ['bare', 'teamRun'] : ['teamRun', 'bare'];
      const processIndex = Math.floor(round / 2) % COST_PROCESSES;
      for (const workflow of order) {
        const sample = await runOnce(env, workers, scenario, workflow, round, processIndex);
        log(
          `  ${scenario.name} ${workflow} round ${round + 1} (process ${processIndex + 1}): ` +
            `${((scenario.tasks.length * 1000) / sample.wallMs).toFixed(1)} ` +
            `tasks/s, CPU/task ${sample.workerCpuMsPerTask.toFixed(2)} ms worker, ${sample.serverCpuMsPerTask.toFixed(2)} ` +
            `ms server, ${sample.historyBytesPerTask.toFixed(0)} B history/task, ${sample.runs} run(s)`,
        );
        samples.push(sample);
      }
    }
    results.push(summarize(scenario, rounds, samples));
  }
  return results;
}

async function runOnce(
  env: BenchEnv,
  workers: CostWorkers,
  scenario: CostScenario,
  workflow: CostSample['workflow'],
  round: number,
  processIndex: number,
): Promise<CostSample> {
  const worker = (workflow === 'teamRun' ? workers.team : workers.bare)[processIndex];
  const n = scenario.tasks.length;
  const workflowId = `cost-${workflow}-${round}-${Date.now().toString(36)}`;
  const serverPid = env.server.process.pid!;
  const before = { worker: cpuMs(worker.pid), server: cpuMs(serverPid) };
  const started = Date.now();
  let handle: WorkflowHandleWithFirstExecutionRunId;
  if (workflow === 'teamRun') {
    const plan: TeamPlanInput = {
      name: 'cost',
      teammates: scenario.teammates,
      lease: { ttlMs: TTL_MS },
      tasks: scenario.tasks,
    };
    handle = await env.client.workflow.start(WORKFLOW_TYPE, { taskQueue: worker.taskQueue, workflowId, args: [plan] });
  } else {
    const input: BaselineInput = { ...scenario.bare, concurrency: scenario.teammates, ttlMs: TTL_MS };
    handle = await env.client.workflow.start('bareRun', { taskQueue: worker.taskQueue, workflowId, args: [input] });
  }
  await handle.result();
  const wallMs = Date.now() - started;
  const cpu = { worker: cpuMs(worker.pid) - before.worker, server: cpuMs(serverPid) - before.server };
  const history = await historyOf(env, workflowId, handle.firstExecutionRunId);
  const perTask = (value: number) => value / n;
  return {
    workflow,
    wallMs,
    workerCpuMsPerTask: perTask(cpu.worker),
    serverCpuMsPerTask: perTask(cpu.server),
    historyBytesPerTask: perTask(history.bytes),
    eventsPerTask: perTask(history.events),
    runs: history.runs,
    bytesByEvent: Object.fromEntries([...history.byEvent].map(([type, bytes]) => [type, perTask(bytes)])),
  };
}

/** Sum of the server's `historySizeBytes` over the runs of a chain, and each event's encoded size by type. */
async function historyOf(env: BenchEnv, workflowId: string, firstRunId: string) {
  const byEvent = new Map<string, number>();
  let bytes = 0;
  let events = 0;
  let runs = 0;
  let runId: string | null | undefined = firstRunId;
  while (runId) {
    const handle: WorkflowHandle = env.client.workflow.getHandle(workflowId, runId);
    const [history, description]: [History, WorkflowExecutionDescription] = await Promise.all([
      handle.fetchHistory(),
      handle.describe(),
    ]);
    bytes += description.historySize ?? 0;
    runs += 1;
    for (const event of history.events ?? []) {
      events += 1;
      const type = temporal.api.enums.v1.EventType[event.eventType as number] ?? String(event.eventType);
      const size = temporal.api.history.v1.HistoryEvent.encode(event).finish().length;
      byEvent.set(type.replace(/^EVENT_TYPE_/, ''), (byEvent.get(type.replace(/^EVENT_TYPE_/, '')) ?? 0) + size);
    }
    runId = history.events?.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId;
  }
  return { bytes, events, runs, byEvent };
}

function summarize(scenario: CostScenario, rounds: number, samples: CostSample[]): CostResult {
  const team = samples.filter((s) => s.workflow === 'teamRun');
  const bare = samples.filter((s) => s.workflow === 'bare');
  const n = scenario.tasks.length;
  const of = (list: CostSample[]) => ({
    tasksPerSecond: median(list.map((s) => (n * 1000) / s.wallMs)),
    workerCpuMsPerTask: median(list.map((s) => s.workerCpuMsPerTask)),
    serverCpuMsPerTask: median(list.map((s) => s.serverCpuMsPerTask)),
    historyBytesPerTask: median(list.map((s) => s.historyBytesPerTask)),
    eventsPerTask: median(list.map((s) => s.eventsPerTask)),
  });
  const ratiosOf = (field: (s: CostSample) => number) => team.map((t, round) => field(t) / field(bare[round]));
  const roundRatios = {
    workerCpu: ratiosOf((s) => s.workerCpuMsPerTask),
    serverCpu: ratiosOf((s) => s.serverCpuMsPerTask),
    historyBytes: ratiosOf((s) => s.historyBytesPerTask),
    throughput: ratiosOf((s) => 1 / s.wallMs),
  };
  return {
    scenario: scenario.name,
    n,
    rounds,
    teamRun: of(team),
    bare: of(bare),
    ratios: {
      workerCpu: median(roundRatios.workerCpu),
      serverCpu: median(roundRatios.serverCpu),
      historyBytes: median(roundRatios.historyBytes),
      throughput: median(roundRatios.throughput),
    },
    roundRatios,
    bytesByEvent: { teamRun: team.at(-1)?.bytesByEvent ?? {}, bare: bare.at(-1)?.bytesByEvent ?? {} },
    samples: samples.map((s) => ({ ...s, bytesByEvent: {} })),
  };
}
