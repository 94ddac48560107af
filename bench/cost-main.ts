import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { costScenarios, measureCost, startCostWorkers } from './cost';
import { formatBytesByEvent, formatCost, formatProfile } from './cost-report';
import { startBenchEnv } from './env';
import { profileWorker } from './profile';

/**
 * `npx tsx bench/cost-main.ts [--rounds N] [--noop N] [--no-profile]`: only the cost tables of
 * docs/benchmarks.md (what a task costs against bare), on a dev server of its own. Needs the
 * built CLI (`npm run build`); BENCH_TEAMRUN_DIST=<dir> runs another build (a copy of dist/ from
 * before a change), BENCH_PROFILE_DIR=<dir> keeps the worker's CPU profiles. Writes the figures
 * to .bench/cost-latest.json.
 */
async function main(): Promise<void> {
  const arg = (name: string, fallback: number) => {
    const i = process.argv.indexOf(name);
    return i < 0 ? fallback : Number(process.argv[i + 1]);
  };
  const rounds = arg('--rounds', 6);
  const sizes = { noop: arg('--noop', 2_000), sleep: arg('--sleep', 200), outputs: arg('--outputs', 20) };
  const log = (line: string) => process.stderr.write(`${line}\n`);
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const loadAtStart = os.loadavg();
  const env = await startBenchEnv();
  try {
    const profiling = !process.argv.includes('--no-profile');
    const profile = profiling ? await profileWorker(env, sizes.noop) : null;
    const bareProfile = profiling ? await profileWorker(env, sizes.noop, 'bare') : null;
    const workers = await startCostWorkers(env);
    const results = await measureCost(env, workers, costScenarios(sizes), rounds, log);
    await workers.stop();
    const load = { atStart: loadAtStart, atEnd: os.loadavg() };
    const dir = path.resolve(__dirname, '..', '.bench');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, 'cost-latest.json'),
      `${JSON.stringify({ load, profile, bareProfile, results }, null, 2)}\n`,
    );
    const parts = results.map(formatCost);
    parts.push(formatBytesByEvent(results[0]));
    if (profile) parts.push(formatProfile(profile, bareProfile ?? undefined));
    parts.push(
      `load average (1/5/15 min): ${load.atStart.map((l) => l.toFixed(2)).join(' ')} at start, ` +
        `${load.atEnd.map((l) => l.toFixed(2)).join(' ')} at end, ${os.cpus().length} cores`,
    );
    process.stdout.write(`${parts.join('\n\n')}\n`);
  } finally {
    await env.close();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`cost bench failed: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
