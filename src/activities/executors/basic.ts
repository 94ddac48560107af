import { setTimeout as delay } from 'node:timers/promises';
import type { Executor } from './types';

/** Sleeps `ms` (the heartbeat keeps the lease meanwhile); for demos and benchmarks. */
export const sleepExecutor: Executor = async (spec, ctx) => {
  await delay(Number(spec.ms), undefined, { signal: ctx.signal });
  return {};
};

/** Returns at once. */
export const noopExecutor: Executor = async () => ({});
