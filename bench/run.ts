import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Runtime, DefaultLogger } from '@temporalio/worker';
import { measureAgents, type AgentBenchSettings } from './agent';
import { costScenarios, measureCost, startCostWorkers } from './cost';
import { startBenchEnv, spawnWorker, type BenchEnv } from './env';
import { measureFailover } from './failover';
import { measureInterrupts } from './interrupt';
import { formatLive, measureLive, type LiveBenchSettings } from './live';
import { formatLedger, measureLedger, type LedgerMode } from './ledger';
import { measureLoad } from './load';
import { measurePace } from './pace';
import { formatWide, measureWide } from './wide';
import { formatAgent, formatReport, targetsOf, type BenchReport } from './report';
import { formatBytesByEvent, formatCost } from './cost-report';
import { measureScale } from './scale';
import { formatTree, measureTreeShape, type TreeResult } from './tree';
import { formatKilledTree, measureKilledTree } from './tree-kill';
import { measureThroughput } from './throughput';

/**
 * `npm run bench [-- --quick] [--only agent|live|cost|wide]`: every benchmark of docs/benchmarks.md (or only the
 * agent one) on an embedded dev server of its own. Prints the tables and writes the figures to
 * .bench/ as JSON. Builds the CLI first (the cost section runs `teamrun worker` as users start it,
 * from dist/).
 */
const SETTINGS = {
  full: {
    n: 2_000,
    // Throughput is a median of interleaved rounds: on a shared machine fewer swing too much.
    rounds: 6,
    cost: { noop: 2_000, sleep: 200, outputs: 20 },
    interrupts: 20,
    failoverTrials: 3,
    ttlMs: 3_000,
    scaleTasks: 10_000,
    scaleEvery: undefined,
    pace: { attempts: 10, attemptMs: 90_000, ttlMs: 30_000 },
    wide: { tasks: 5_000, teammates: 1_000, taskMs: 5_000, workers: 4 },
    load: { runs: 20, tasksPerRun: 50, teammates: 4, taskMs: 300, passes: 2 },
    agent: { agents: 4, turns: 50, rounds: 6 },
    live: { tokens: 2_000, tokensPerSecond: 100, rounds: 3 },
    ledger: { runs: 10, tasksPerRun: 100, teammates: 20, rounds: 3 },
  },
  // A smoke run: small enough for a few minutes, with a low handover threshold so continue-as-new still happens.
  quick: {
    n: 200,
    rounds: 1,
    cost: { noop: 200, sleep: 40, outputs: 4 },
    interrupts: 5,
    failoverTrials: 1,
    ttlMs: 3_000,
    scaleTasks: 1_000,
    scaleEvery: 1_000,
    pace: { attempts: 4, attemptMs: 12_000, ttlMs: 6_000 },
    wide: { tasks: 400, teammates: 100, taskMs: 2_000, workers: 2 },
    load: { runs: 5, tasksPerRun: 20, teammates: 4, taskMs: 300, passes: 1 },
    agent: { agents: 2, turns: 10, rounds: 1 },
    live: { tokens: 500, tokensPerSecond: 100, rounds: 1 },
    ledger: { runs: 4, tasksPerRun: 25, teammates: 10, rounds: 1 },
  },
} as const;

async function main(): Promise<void> {
  const mode = process.argv.includes('--quick') ? 'quick' : 'full';
  const settings = SETTINGS[mode];
  const log = (line: string) => process.stderr.write(`${line}\n`);
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const startedAt = new Date().toISOString();
  const loadAtStart = os.loadavg();
  // The tree and agent benchmarks alone run their workers from the sources (bench/worker.ts): they need no build.
  // BENCH_NO_BUILD=1: dist/ is current already (a section run alone, on a machine where a build takes minutes).
  const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
  if (only !== 'tree' && only !== 'agent' && !process.env.BENCH_NO_BUILD) {
    log('building the CLI (npm run build)...');
    execFileSync('npm', ['run', 'build'], {
      cwd: path.resolve(__dirname, '..'),
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  log(`starting a dev server for the ${mode} benchmark...`);
  const env = await startBenchEnv();
  if (process.argv.includes('--only')) return onlyAgent(env, mode, log);
  try {
    const taskQueue = 'bench-main';
    const worker = await spawnWorker(env, taskQueue, 'bench-worker');
    log(`(1)-(3) throughput: ${settings.n} tasks, ${settings.rounds} round(s) per workflow and graph`);
    const throughput = await measureThroughput(env, worker, settings.n, settings.rounds, log);
    log(`(0b) cost per task against bare on teamrun worker (the built CLI), ${settings.rounds} round(s)`);
    const costWorkers = await startCostWorkers(env);
    const cost = await measureCost(env, costWorkers, costScenarios(settings.cost), settings.rounds, log);
    await costWorkers.stop();
    log(`(4) interrupt latency over ${settings.interrupts}`);
    const interrupt = await measureInterrupts(env, taskQueue, settings.interrupts);
    log(
      `(7) heartbeats of ${settings.pace.attempts} attempts of ${settings.pace.attemptMs} ms, TTL ${settings.pace.ttlMs} ms`,
    );
    const pace = await measurePace(env, taskQueue, settings.pace);
    await worker.stop();
    log(
      `(8) ${settings.wide.teammates} teammates: ${settings.wide.tasks} x ${settings.wide.taskMs} ms sleep tasks on ${settings.wide.workers} workers`,
    );
    const wide = await measureWide(env, settings.wide, log);
    log(
      `(9) load: ${settings.load.runs} runs x ${settings.load.tasksPerRun} tasks at once on one worker, ${settings.load.passes} pass(es)`,
    );
    const load = await measureLoad(env, settings.load, log);
    log(`(5) failover, ${settings.failoverTrials} trial(s)`);
    const failover = await measureFailover(env, settings.failoverTrials, settings.ttlMs);
    log(`(6) scale: ${settings.scaleTasks} tasks`);
    const scale = await measureScale(env, settings.scaleTasks, 64, log, settings.scaleEvery);
    log(agentLine(settings.agent));
    const agent = await measureAgents(env, settings.agent, log);
    log(liveLine(settings.live));
    const live = await measureLive(env, settings.live, log);
    const cpus = os.cpus();
    const partial = {
      mode,
      startedAt,
      machine: {
        cpus: cpus.length,
        cpuModel: cpus[0]?.model.trim() ?? 'unknown',
        memGiB: os.totalmem() / 2 ** 30,
        node: process.version,
        os: `${os.type()} ${os.release()}`,
        temporal: env.temporalVersion,
        loadAverage: { atStart: loadAtStart, atEnd: os.loadavg() },
      },
      throughput,
      cost,
      interrupt,
      failover,
      scale,
      pace,
      wide,
      load,
      agent,
      live,
    } satisfies Omit<BenchReport, 'targets'>;
    const report: BenchReport = { ...partial, targets: targetsOf(partial) };
    const dir = path.resolve(__dirname, '..', '.bench');
    mkdirSync(dir, { recursive: true });
    const json = `${JSON.stringify(report, null, 2)}\n`;
    writeFileSync(path.join(dir, `${startedAt.replace(/[:.]/g, '-')}-${mode}.json`), json);
    writeFileSync(path.join(dir, `latest-${mode}.json`), json);
    process.stdout.write(`${formatReport(report)}\n\nfigures written to .bench/latest-${mode}.json\n`);
  } finally {
    await env.close();
  }
}

const liveLine = (s: LiveBenchSettings) =>
  `(11) live partial output: ${s.tokens} tokens at ${s.tokensPerSecond}/s, ${s.rounds} round(s)`;

const agentLine = (s: AgentBenchSettings) =>
  `(10) agent steps: ${s.agents} agents x ${s.turns} model calls, ${s.rounds} round(s)`;

/**
 * `--only agent` or `--only live`: that benchmark alone (it needs no other), written to
 * .bench/latest-<name>-<mode>.json.
 */
async function onlyAgent(env: BenchEnv, mode: 'full' | 'quick', log: (line: string) => void): Promise<void> {
  const only = process.argv[process.argv.indexOf('--only') + 1];
  try {
    if (only === 'live') return await onlyLive(env, mode, log);
    if (only === 'cost' || only === 'wide') return await onlySection(env, mode, only, log);
    if (only === 'tree') return await onlyTree(env, mode, log);
    if (only === 'ledger') return await onlyLedger(env, mode, log);
    if (only !== 'agent')
      throw new Error(
        `--only: "${only}" is not a benchmark that runs alone (only "agent", "live", "cost", "wide", "tree" and "ledger" do)`,
      );
    // BENCH_AGENT=<agents>x<turns>x<rounds> (e.g. 4x20x2): a size between --quick and the full one.
    const sized = /^(\d+)x(\d+)x(\d+)$/.exec(process.env.BENCH_AGENT ?? '');
    const settings = sized
      ? { agents: Number(sized[1]), turns: Number(sized[2]), rounds: Number(sized[3]) }
      : SETTINGS[mode].agent;
    log(agentLine(settings));
    const loadAtStart = os.loadavg();
    const agent = await measureAgents(env, settings, log);
    const machine = { cpus: os.cpus().length, loadAverage: { atStart: loadAtStart, atEnd: os.loadavg() } };
    const dir = path.resolve(__dirname, '..', '.bench');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, `latest-agent-${mode}.json`),
      `${JSON.stringify({ mode, machine, agent }, null, 2)}\n`,
    );
    const load = (l: number[]) => l.map((n) => n.toFixed(1)).join('/');
    process.stdout.write(
      `${formatAgent(agent)}\nload average (1/5/15 min) at start ${load(machine.loadAverage.atStart)}, ` +
        `at end ${load(machine.loadAverage.atEnd)} on ${machine.cpus} cores\n` +
        `figures written to .bench/latest-agent-${mode}.json\n`,
    );
  } finally {
    await env.close();
  }
}

async function onlyLive(env: BenchEnv, mode: 'full' | 'quick', log: (line: string) => void): Promise<void> {
  const settings = SETTINGS[mode].live;
  log(liveLine(settings));
  const loadAtStart = os.loadavg();
  const live = await measureLive(env, settings, log);
  printFigures(`latest-live-${mode}.json`, { mode, live }, formatLive(live), loadAtStart);
}

/** `--only ledger`: section (12), a shared ledger's admission against the same runs without one. */
async function onlyLedger(env: BenchEnv, mode: 'full' | 'quick', log: (line: string) => void): Promise<void> {
  // BENCH_LEDGER_ROUNDS: fewer rounds of the full size (each round of 1,000 attempts takes minutes on a loaded machine).
  const rounds = Number(process.env.BENCH_LEDGER_ROUNDS) || SETTINGS[mode].ledger.rounds;
  // BENCH_LEDGER_TASKS: fewer attempts per run than the mode's (the same 10 runs asking at once, a shorter round).
  const tasksPerRun = Number(process.env.BENCH_LEDGER_TASKS) || SETTINGS[mode].ledger.tasksPerRun;
  // BENCH_LEDGER_MODES: which of blocks, slots and none each round runs (default: all three).
  const modes = process.env.BENCH_LEDGER_MODES?.split(',').map((m) => m.trim()) as LedgerMode[] | undefined;
  const settings = { ...SETTINGS[mode].ledger, rounds, tasksPerRun, ...(modes ? { modes } : {}) };
  log(`(12) shared ledger: ${settings.runs} runs x ${settings.tasksPerRun} attempts, ${settings.rounds} round(s)`);
  const loadAtStart = os.loadavg();
  const ledger = await measureLedger(env, settings, log);
  printFigures(`latest-ledger-${mode}.json`, { mode, ledger }, formatLedger(ledger), loadAtStart);
}

/**
 * `--only cost` (section 0b: a task's cost against the bare worker, `rounds` interleaved rounds) or `--only wide`
 * (section 8: the 1,000 teammates against the bare fan-out on bare workers), printed as `npm run bench` prints them,
 * written to .bench/latest-<name>-<mode>.json.
 */
async function onlySection(
  env: BenchEnv,
  mode: 'full' | 'quick',
  only: 'cost' | 'wide',
  log: (line: string) => void,
): Promise<void> {
  const settings = SETTINGS[mode];
  const loadAtStart = os.loadavg();
  let figures: unknown;
  let text: string;
  if (only === 'cost') {
    log(`(0b) cost per task against bare on teamrun worker (the built CLI), ${settings.rounds} round(s)`);
    const workers = await startCostWorkers(env);
    const cost = await measureCost(env, workers, costScenarios(settings.cost), settings.rounds, log).finally(() =>
      workers.stop(),
    );
    figures = cost;
    text = [...cost.map(formatCost), formatBytesByEvent(cost[0])].join('\n\n');
  } else {
    const { wide: w } = settings;
    log(`(8) ${w.teammates} teammates: ${w.tasks} x ${w.taskMs} ms sleep tasks on ${w.workers} workers`);
    const wide = await measureWide(env, w, log);
    figures = wide;
    text = formatWide(wide);
  }
  const file = `latest-${only}-${mode}.json`;
  printFigures(file, { mode, [only]: figures }, text, loadAtStart);
}

/**
 * `--only tree`: 100,000 noop tasks under one root (100 children of 1,000, 10 of 10,000) against the same work as
 * sequential flat runs; `--quick` at a tenth of the tasks per child, `--divide N` at 1/N; `--kill-halfway` the tree
 * alone with its worker killed with SIGKILL halfway.
 */
async function onlyTree(env: BenchEnv, mode: 'full' | 'quick', log: (line: string) => void): Promise<void> {
  const at = process.argv.indexOf('--divide');
  const divide = at > 0 ? Number(process.argv[at + 1]) : mode === 'quick' ? 10 : 1;
  if (!Number.isInteger(divide) || divide < 1) throw new Error('--divide: a whole number of at least 1');
  const loadAtStart = os.loadavg();
  const startedAt = new Date().toISOString();
  const results: TreeResult[] = [];
  // `--shape 10x1000`: that one shape instead (children x tasks per child, before --divide).
  const picked = process.argv.includes('--shape') ? process.argv[process.argv.indexOf('--shape') + 1] : undefined;
  const shapes = picked
    ? [picked.split('x').map(Number)]
    : [
        [100, 1_000],
        [10, 10_000],
      ];
  if (shapes.some((s) => s.length !== 2 || !s.every((n) => Number.isInteger(n) && n > 0)))
    throw new Error('--shape: CHILDRENxTASKS, e.g. 10x1000');
  for (const [children, tasks] of shapes) {
    const shape = { children, tasksPerChild: Math.max(1, tasks / divide), rootTeammates: 10, childTeammates: 64 };
    // `--kill-halfway`: the tree alone, its worker killed with SIGKILL once half its children are done.
    if (process.argv.includes('--kill-halfway')) {
      const killed = await measureKilledTree(env, shape, log);
      const name = `latest-tree-kill-${divide === 1 ? 'full' : `1-${divide}`}-${children}x${tasks}.json`;
      printFigures(name, { mode, divide, startedAt, killed }, formatKilledTree(killed), loadAtStart);
      continue;
    }
    results.push(await measureTreeShape(env, shape, log));
  }
  if (!results.length) return;
  const name = `latest-tree-${divide === 1 ? 'full' : `1-${divide}`}${picked ? `-${picked}` : ''}.json`;
  printFigures(name, { mode, divide, startedAt, tree: results }, formatTree(results), loadAtStart);
}

/** Writes `figures` (with the machine's cores and load) to .bench/<name> and prints `text` with the load. */
function printFigures(name: string, figures: object, text: string, loadAtStart: number[]): void {
  const machine = { cpus: os.cpus().length, loadAverage: { atStart: loadAtStart, atEnd: os.loadavg() } };
  const dir = path.resolve(__dirname, '..', '.bench');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, name), `${JSON.stringify({ ...figures, machine }, null, 2)}\n`);
  const load = (l: number[]) => l.map((n) => n.toFixed(1)).join('/');
  process.stdout.write(
    `${text}\nload average (1/5/15 min) at start ${load(machine.loadAverage.atStart)}, ` +
      `at end ${load(machine.loadAverage.atEnd)} on ${machine.cpus} cores\nfigures written to .bench/${name}\n`,
  );
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`bench failed: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
