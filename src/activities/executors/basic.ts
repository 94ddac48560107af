import { setTimeout as delay } from 'node:timers/promises';
import { NoopSpecSchema, SleepSpecSchema } from '../../plan/schema';
import { defineExecutor } from './define';

/** Sleeps `ms` (the heartbeat keeps the lease meanwhile); for demos and benchmarks. */
export const sleepExecutor = defineExecutor(SleepSpecSchema, async (spec, ctx) => {
  await delay(spec.ms, undefined, { signal: ctx.signal });
  return {};
});

/** Returns at once. */
export const noopExecutor = defineExecutor(NoopSpecSchema, async () => ({}));
