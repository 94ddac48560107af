import { count, duration, table } from '../src/cli/format';
import type { FailoverResult } from './failover';
import type { InterruptResult } from './interrupt';
import type { ScaleResult } from './scale';
import type { Summary } from './stats';
import type { ThroughputResult } from './throughput';

export interface BenchReport {
  mode: 'full' | 'quick';
  startedAt: string;
  machine: { cpus: number; cpuModel: string; memGiB: number; node: string; os: string; temporal: string };
  throughput: ThroughputResult[];
  interrupt: InterruptResult;
  failover: FailoverResult;
  scale: ScaleResult;
  targets: Target[];
}

export interface Target {
  name: string;
  goal: string;
  measured: string;
  met: boolean;
}

const ms = (value: number) => `${Math.round(value)} ms`;
const p = (s: Summary) => `${ms(s.p50)} / ${ms(s.p95)}`;

/** The targets, checked against what was measured (never asserted anywhere else). */
export function targetsOf(report: Omit<BenchReport, 'targets'>): Target[] {
  const { throughput, interrupt, failover, scale } = report;
  return [
    ...throughput.map((t) => ({
      name: `throughput ratio (${t.graph})`,
      goal: '>= 0.90',
      measured: t.ratio.toFixed(2),
      met: t.ratio >= 0.9,
    })),
    ...throughput.map((t) => ({
      name: `events per task vs baseline (${t.graph})`,
      goal: 'within 1',
      measured: `${t.eventsPerTaskDelta >= 0 ? '+' : ''}${t.eventsPerTaskDelta.toFixed(2)}`,
      met: Math.abs(t.eventsPerTaskDelta) <= 1,
    })),
    { name: 'interrupt latency p95', goal: '<= 1500 ms', measured: ms(interrupt.latency.p95), met: interrupt.latency.p95 <= 1500 },
    {
      name: 'failover (worst trial)',
      goal: `<= TTL + 2 s = ${ms(failover.ttlMs + 2000)}`,
      measured: ms(failover.total.max),
      met: failover.total.max <= failover.ttlMs + 2000,
    },
    { name: `${count(scale.tasks)} tasks complete`, goal: 'succeeded', measured: scale.status, met: scale.status === 'succeeded' },
    { name: 'largest run history', goal: '<= 10,240 events', measured: count(scale.maxRunEvents), met: scale.maxRunEvents <= 10_240 },
    {
      name: 'status query p95 at full size',
      goal: '<= 100 ms',
      measured: ms(scale.queries.atFullSize.status.p95),
      met: scale.queries.atFullSize.status.p95 <= 100,
    },
  ];
}

/** The report as the tables `npm run bench` prints. */
export function formatReport(report: BenchReport): string {
  const { machine, throughput, interrupt, failover, scale } = report;
  const out: string[] = [];
  out.push(
    `teamrun benchmarks (${report.mode}), ${report.startedAt}`,
    `${machine.cpus} x ${machine.cpuModel}, ${machine.memGiB.toFixed(1)} GiB, node ${machine.node}, ${machine.temporal}`,
    '',
    `(1)+(2) throughput and history, ${count(throughput[0]?.n ?? 0)} noop tasks, 32 teammates, one worker`,
    table(
      ['graph', 'teamRun tasks/s', 'baseline tasks/s', 'ratio (per round)', 'events/task teamRun', 'baseline', 'runs (max events)', 'CPU ms/task worker teamRun', 'baseline', 'server teamRun', 'baseline'],
      throughput.map((t) => [
        t.graph,
        t.teamRun.tasksPerSecond.toFixed(1),
        t.baseline.tasksPerSecond.toFixed(1),
        `${t.ratio.toFixed(2)} (${t.roundRatios.map((r) => r.toFixed(2)).join(', ')})`,
        t.teamRun.eventsPerTask.toFixed(2),
        t.baseline.eventsPerTask.toFixed(2),
        `${t.teamRun.runs} (${count(t.teamRun.maxRunEvents)})`,
        t.teamRun.workerCpuMsPerTask.toFixed(2),
        t.baseline.workerCpuMsPerTask.toFixed(2),
        t.teamRun.serverCpuMsPerTask.toFixed(2),
        t.baseline.serverCpuMsPerTask.toFixed(2),
      ]),
    ),
    '',
    '(3) last dependency completed -> dependent attempt, p50 / p95 (layered graph)',
    table(
      ['workflow', 'scheduled', 'started'],
      throughput
        .filter((t) => t.dependencyLatency)
        .flatMap((t) => [
          ['teamRun', p(t.dependencyLatency!.teamRun.toScheduled), p(t.dependencyLatency!.teamRun.toStarted)],
          ['baseline', p(t.dependencyLatency!.baseline.toScheduled), p(t.dependencyLatency!.baseline.toStarted)],
        ]),
    ),
    '',
    `(4) interruptTask sent -> shell process gone, over ${interrupt.samples.length}: p50 ${ms(interrupt.latency.p50)}, p95 ${ms(interrupt.latency.p95)}, max ${ms(interrupt.latency.max)}`,
    '',
    `(5) worker killed -> next attempt running, lease TTL ${ms(failover.ttlMs)}`,
    table(
      ['trial', 'total', 'kill -> timed out', 'timed out -> scheduled', 'scheduled -> running'],
      failover.trials.map((t, i) => [String(i + 1), ms(t.totalMs), ms(t.detectMs), ms(t.releaseMs), ms(t.startMs)]),
    ),
    '',
    `(6) scale: ${count(scale.tasks)} tasks, mixed widths, ${scale.teammates} teammates, one worker`,
    table(
      ['wall', 'tasks/s', 'runs', 'max events/run', 'events', 'worker peak RSS', 'result'],
      [
        [
          duration(scale.wallMs),
          scale.tasksPerSecond.toFixed(1),
          String(scale.runs),
          count(scale.maxRunEvents),
          count(scale.totalEvents),
          `${scale.workerPeakRssMiB.toFixed(0)} MiB`,
          `${scale.status}, ${count(scale.resultBytes)} bytes, ${count(scale.resultOmittedTasks)} views omitted`,
        ],
      ],
    ),
    `handover (continue-as-new) pauses, p50 / max over ${scale.handover.total.n}: drain ${ms(scale.handover.drain.p50)} / ${ms(scale.handover.drain.max)}, new run to first claim ${ms(scale.handover.restart.p50)} / ${ms(scale.handover.restart.max)}, total ${ms(scale.handover.total.p50)} / ${ms(scale.handover.total.max)}`,
    table(
      ['query, p50 / p95', 'while running', 'at full size'],
      [
        ['status', p(scale.queries.whileRunning.status), p(scale.queries.atFullSize.status)],
        ['tasks (100 from the middle)', p(scale.queries.whileRunning.tasks100), p(scale.queries.atFullSize.tasks100)],
        ['tasks (first 1000)', '-', p(scale.queries.atFullSize.tasks1000)],
        ['status on the closed run', '-', p(scale.queries.closedRun.status)],
      ],
    ),
    '',
    'targets',
    table(
      ['target', 'goal', 'measured', ''],
      report.targets.map((t) => [t.name, t.goal, t.measured, t.met ? 'met' : 'MISSED']),
    ),
  );
  return out.join('\n');
}
