import type { CostResult } from './cost';
import type { WorkerProfile } from './profile';

const f = (value: number, digits = 2) => value.toFixed(digits);
const range = (values: number[]) => (values.length > 1 ? ` (${f(Math.min(...values))}-${f(Math.max(...values))})` : '');

/** A scenario's table: per task, teamRun against bare, and their ratio (median of the rounds' ratios, and its range). */
export function formatCost(result: CostResult): string {
  const { teamRun: team, bare, ratios, roundRatios } = result;
  const rows = [
    [
      'throughput (tasks/s)',
      f(team.tasksPerSecond, 1),
      f(bare.tasksPerSecond, 1),
      ratios.throughput,
      roundRatios.throughput,
    ],
    [
      'worker CPU (ms/task)',
      f(team.workerCpuMsPerTask),
      f(bare.workerCpuMsPerTask),
      ratios.workerCpu,
      roundRatios.workerCpu,
    ],
    [
      'server CPU (ms/task)',
      f(team.serverCpuMsPerTask),
      f(bare.serverCpuMsPerTask),
      ratios.serverCpu,
      roundRatios.serverCpu,
    ],
    [
      'history bytes (B/task)',
      f(team.historyBytesPerTask, 0),
      f(bare.historyBytesPerTask, 0),
      ratios.historyBytes,
      roundRatios.historyBytes,
    ],
  ] as const;
  return [
    `${result.scenario}, ${result.rounds} interleaved round(s)`,
    '',
    '| per task | teamRun | bare | ratio |',
    '| --- | --- | --- | --- |',
    ...rows.map(([name, t, b, ratio, all]) => `| ${name} | ${t} | ${b} | **${f(ratio)}**${range(all)} |`),
    `| history events | ${f(team.eventsPerTask)} | ${f(bare.eventsPerTask)} | ${f(team.eventsPerTask / bare.eventsPerTask)} |`,
  ].join('\n');
}

/** History bytes per task by event type, teamRun against bare. */
export function formatBytesByEvent(result: CostResult): string {
  const { teamRun, bare } = result.bytesByEvent;
  const types = [...new Set([...Object.keys(teamRun), ...Object.keys(bare)])].sort(
    (a, b) => (teamRun[b] ?? 0) - (teamRun[a] ?? 0),
  );
  const total = (bytes: Record<string, number>) => Object.values(bytes).reduce((sum, b) => sum + b, 0);
  return [
    `history bytes per task by event type (${result.scenario})`,
    '',
    '| event | teamRun | bare |',
    '| --- | --- | --- |',
    ...types.map((t) => `| ${t} | ${f(teamRun[t] ?? 0, 0)} | ${f(bare[t] ?? 0, 0)} |`),
    `| total (encoded events) | ${f(total(teamRun), 0)} | ${f(total(bare), 0)} |`,
  ].join('\n');
}

export function formatProfile(profile: WorkerProfile, bare?: WorkerProfile): string {
  const places = [...new Set([...Object.keys(profile.msPerTask), ...Object.keys(bare?.msPerTask ?? {})])];
  const ms = (p: WorkerProfile | undefined, place: string) => (p ? f(p.msPerTask[place] ?? 0, 3) : '');
  return [
    `the worker's threads per task (V8 sampling profiler, ${profile.tasks} noop tasks)` +
      (bare ? ': teamrun worker, and the bare worker on the bare fan-out' : ''),
    '',
    bare ? '| where | teamrun worker ms/task | bare worker ms/task |' : '| where | ms/task |',
    bare ? '| --- | --- | --- |' : '| --- | --- |',
    ...places.map((place) => `| ${place} | ${ms(profile, place)} |${bare ? ` ${ms(bare, place)} |` : ''}`),
    '',
    '| function (self time), teamrun worker | ms/task |',
    '| --- | --- |',
    ...profile.top.map(({ name, msPerTask }) => `| \`${name}\` | ${f(msPerTask, 3)} |`),
  ].join('\n');
}
