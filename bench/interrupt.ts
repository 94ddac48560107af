import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { TeamPlanInput } from '../src/plan/schema';
import { WORKFLOW_TYPE, activeClaimsQuery, interruptTaskSignal } from '../src/workflows/messages';
import { sleep, until, type BenchEnv } from './env';
import { summarize, type Summary } from './stats';
import { alive } from '../test/helpers/processes';
import { STOP_ANNOUNCE_AFTER_MS, defaultHeartbeatEveryMs } from '../src/plan/lease-pace';

export interface InterruptResult {
  samples: number[];
  latency: Summary;
  /** The lease of the held attempts (their heartbeats come every `heartbeatEveryMs`: a stop must not wait for one). */
  ttlMs: number;
  heartbeatEveryMs: number;
}

/**
 * Benchmark (4): `count` shell tasks run at once, with the default lease (30 s TTL, a heartbeat
 * every 20 s); once all of them are past the announcement threshold, each in turn gets an
 * `interruptTask` signal, timed from the moment the signal is sent to the moment its process is gone.
 */
export async function measureInterrupts(env: BenchEnv, taskQueue: string, count: number): Promise<InterruptResult> {
  const tasks: TeamPlanInput['tasks'] = Array.from({ length: count }, (_, i) => ({
    key: `hold-${i}`,
    executor: { kind: 'shell', command: `echo $$ > ${env.dir}/$TEAMRUN_TASK_KEY.pid; exec sleep 600` },
  }));
  const plan: TeamPlanInput = { name: 'bench-interrupt', teammates: count, awaitAdjudication: false, tasks };
  const workflowId = `bench-interrupt-${Date.now().toString(36)}`;
  const handle = await env.client.workflow.start(WORKFLOW_TYPE, { taskQueue, workflowId, args: [plan] });
  const claims = await until('every hold task to run', async () => {
    const active = await handle.query(activeClaimsQuery);
    const running = tasks.every((t) => existsSync(path.join(env.dir, `${t.key}.pid`)));
    return active.length === count && running ? active : null;
  });
  // Past the announcement threshold (STOP_ANNOUNCE_AFTER_MS, 1 s) with room to spare.
  await sleep(STOP_ANNOUNCE_AFTER_MS + 1_000);
  const samples: number[] = [];
  for (const claim of claims) {
    const pid = Number(readFileSync(path.join(env.dir, `${claim.key}.pid`), 'utf8'));
    // Spread the sends, so they land at random points of whatever cycle there is.
    await sleep(300 + Math.random() * 700);
    const sent = performance.now();
    await handle.signal(interruptTaskSignal, {
      key: claim.key,
      fencingToken: claim.fencingToken,
      requestId: `bench-${claim.key}`,
      actor: 'bench',
    });
    await until(`process ${pid} of ${claim.key} to be gone`, () => !alive(pid), 30_000, 5);
    samples.push(performance.now() - sent);
  }
  await handle.result();
  return { samples, latency: summarize(samples), ttlMs: 30_000, heartbeatEveryMs: defaultHeartbeatEveryMs(30_000) };
}
