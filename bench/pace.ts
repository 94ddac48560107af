import type { TeamPlanInput } from '../src/plan/schema';
import { heartbeatEveryMs } from '../src/plan/lease-pace';
import { WORKFLOW_TYPE } from '../src/workflows/messages';
import type { BenchEnv } from './env';
import { HEARTBEAT_RPC, serverRequests } from './metrics';

export interface PaceResult {
  attempts: number;
  attemptMs: number;
  ttlMs: number;
  heartbeatEveryMs: number;
  heartbeatRpcs: number;
  perAttempt: number;
  perAttemptMinute: number;
  /** What that pace means for a 10-minute attempt with the default 30 s TTL. */
  tenMinuteAttemptAt30sTtl: number;
}

/**
 * Heartbeats of long attempts: `attempts` `sleep` tasks of `attemptMs` each at once, with a
 * lease of `ttlMs`, counted at the server (its heartbeat RPCs while the run ran).
 */
export async function measurePace(
  env: BenchEnv,
  taskQueue: string,
  options: { attempts: number; attemptMs: number; ttlMs: number },
): Promise<PaceResult> {
  const plan: TeamPlanInput = {
    name: 'bench-pace',
    teammates: options.attempts,
    lease: { ttlMs: options.ttlMs },
    tasks: Array.from({ length: options.attempts }, (_, i) => ({
      key: `long-${i}`,
      executor: { kind: 'sleep', ms: options.attemptMs },
    })),
  };
  const before = await serverRequests(env.metricsUrl, HEARTBEAT_RPC);
  const handle = await env.client.workflow.start(WORKFLOW_TYPE, {
    taskQueue,
    workflowId: `bench-pace-${Date.now().toString(36)}`,
    args: [plan],
  });
  await handle.result();
  const heartbeatRpcs = (await serverRequests(env.metricsUrl, HEARTBEAT_RPC)) - before;
  const every = heartbeatEveryMs({ ttlMs: options.ttlMs });
  return {
    ...options,
    heartbeatEveryMs: every,
    heartbeatRpcs,
    perAttempt: heartbeatRpcs / options.attempts,
    perAttemptMinute: heartbeatRpcs / ((options.attempts * options.attemptMs) / 60_000),
    tenMinuteAttemptAt30sTtl: Math.floor(600_000 / heartbeatEveryMs({ ttlMs: 30_000 })),
  };
}
