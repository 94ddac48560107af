import { NativeConnection } from '@temporalio/worker';
import { temporal } from '@temporalio/proto';
import { z } from 'zod';
import type { LivePublisher } from '../src/activities/live-output';
import { startTeamRun } from '../src/client';
import { readLive } from '../src/client/live';
import { ConfigSchema } from '../src/config/config';
import { createWorker, defineExecutor } from '../src/worker';
import type { BenchEnv } from './env';
import { median } from './stats';

export interface LiveBenchSettings {
  /** Tokens one model call streams (a token: one short word). */
  tokens: number;
  tokensPerSecond: number;
  /** Interleaved rounds of (streamed with ctx.live, same call without it). */
  rounds: number;
}

export interface LiveBenchResult {
  settings: LiveBenchSettings;
  per1000Tokens: {
    /** History events of the run, with ctx.live minus without it. */
    historyEvents: number;
    historyBytes: number;
    /** Heartbeats ctx.live sent (each one RPC from the worker, none recorded in history). */
    heartbeats: number;
    /** Bytes of the heartbeat details those carried (JSON, before the payload codec). */
    heartbeatBytes: number;
  };
  /** From the executor producing a token to a watcher (describe every 100 ms) showing it: median and max. */
  latencyMs: { median: number; max: number };
}

/** When each token was produced, by run: the in-process executor writes, the watcher reads. */
const produced = new Map<string, number[]>();
/** What ctx.live published, by run (kept out of the task's output, so both runs' histories differ in nothing else). */
const publishes = new Map<string, { published: number; bytes: number }>();

const streamer = defineExecutor(
  z.object({ tokens: z.number().int(), perSecond: z.number(), live: z.number() }),
  async (spec, ctx) => {
    const times: number[] = [];
    produced.set(ctx.workflowId, times);
    let text = '';
    const started = Date.now();
    for (let i = 0; i < spec.tokens; i++) {
      const due = started + (i * 1_000) / spec.perSecond;
      if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
      text += `w${i} `;
      times.push(Date.now());
      if (spec.live) ctx.live?.partial({ turn: 1, text });
    }
    const publisher = ctx.live as LivePublisher;
    // What each publish carried, as the last did (the text's tail stays within its bound once it reaches it).
    const bytes = publisher.view() ? Buffer.byteLength(JSON.stringify(publisher.view())) : 0;
    publishes.set(ctx.workflowId, { published: spec.live ? publisher.published : 0, bytes });
    ctx.live?.done(1);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    return { output: 'done' };
  },
);

/**
 * ctx.live's cost: one model call streaming `tokens` tokens through it against the same call without it, on an
 * in-process worker, interleaved; the history of each run is read whole. A watcher polls the run (as `teamrun
 * watch` does, but every 100 ms) and records how long each token took to show.
 */
export async function measureLive(
  env: BenchEnv,
  settings: LiveBenchSettings,
  log: (line: string) => void,
): Promise<LiveBenchResult> {
  const taskQueue = 'bench-live';
  const config = ConfigSchema.parse({});
  config.connection.address = env.server.address;
  const connection = await NativeConnection.connect({ address: env.server.address });
  const worker = await createWorker({
    config,
    connection,
    taskQueue,
    executors: { streamer },
    workflowBundle: { codePath: env.bundlePath },
  });
  const running = worker.run();
  const diffs: Array<{ events: number; bytes: number; heartbeats: number; heartbeatBytes: number }> = [];
  const latencies: number[] = [];
  try {
    for (let round = 0; round < settings.rounds; round++) {
      const streamed = await runOnce(env, taskQueue, settings, true, latencies);
      const silent = await runOnce(env, taskQueue, settings, false, []);
      diffs.push({
        events: streamed.events - silent.events,
        bytes: streamed.bytes - silent.bytes,
        heartbeats: streamed.published,
        heartbeatBytes: streamed.published * streamed.publishBytes,
      });
      log(`  round ${round + 1}: ${streamed.events} vs ${silent.events} events, ${streamed.published} heartbeats`);
    }
  } finally {
    worker.shutdown();
    await running;
    await connection.close();
  }
  const per = (n: number) => (n * 1_000) / settings.tokens;
  return {
    settings,
    per1000Tokens: {
      historyEvents: per(median(diffs.map((d) => d.events))),
      historyBytes: per(median(diffs.map((d) => d.bytes))),
      heartbeats: per(median(diffs.map((d) => d.heartbeats))),
      heartbeatBytes: per(median(diffs.map((d) => d.heartbeatBytes))),
    },
    latencyMs: { median: median(latencies), max: Math.max(0, ...latencies) },
  };
}

async function runOnce(
  env: BenchEnv,
  taskQueue: string,
  settings: LiveBenchSettings,
  live: boolean,
  latencies: number[],
): Promise<{ events: number; bytes: number; published: number; publishBytes: number }> {
  // Both runs' ids and specs are the same length: their histories differ only by what ctx.live adds.
  const workflowId = `bench-live-${live ? 'on' : 'no'}-${Date.now()}`;
  const handle = await startTeamRun(
    env.client,
    {
      name: 'bench-live',
      tasks: [
        {
          key: 'talk',
          executor: {
            kind: 'streamer',
            tokens: settings.tokens,
            perSecond: settings.tokensPerSecond,
            live: live ? 1 : 0,
          },
        },
      ],
    },
    { taskQueue, workflowId },
  );
  let done = false;
  const result = handle.result().finally(() => (done = true));
  while (live && !done) {
    const seen = (await readLive(env.client, workflowId).catch(() => []))[0];
    const last = seen?.text.trimEnd().match(/w(\d+)$/);
    const at = last ? produced.get(workflowId)?.[Number(last[1])] : undefined;
    if (at !== undefined) latencies.push(Date.now() - at);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await result;
  const output = publishes.get(workflowId);
  const { history } = await env.client.workflowService.getWorkflowExecutionHistory({
    namespace: env.client.options.namespace,
    execution: { workflowId },
  });
  const events = history?.events ?? [];
  const bytes = events.reduce(
    (n, e) =>
      n + temporal.api.history.v1.HistoryEvent.encode(temporal.api.history.v1.HistoryEvent.create(e)).finish().length,
    0,
  );
  return { events: events.length, bytes, published: output?.published ?? 0, publishBytes: output?.bytes ?? 0 };
}

/** (11): the table of docs/benchmarks.md's streaming section. */
export function formatLive(live: LiveBenchResult): string {
  const { tokens, tokensPerSecond, rounds } = live.settings;
  const p = live.per1000Tokens;
  return [
    `(11) live partial output (ctx.live): one model call streaming ${tokens} tokens at ${tokensPerSecond}/s, ` +
      `with it and without it, ${rounds} round(s)`,
    `  per 1,000 streamed tokens: ${p.historyEvents.toFixed(1)} history events, ${p.historyBytes.toFixed(0)} history ` +
      `bytes, ${p.heartbeats.toFixed(1)} heartbeats carrying ${(p.heartbeatBytes / 1024).toFixed(1)} KiB`,
    `  token produced -> shown to a watcher: median ${live.latencyMs.median.toFixed(0)} ms, ` +
      `max ${live.latencyMs.max.toFixed(0)} ms`,
  ].join('\n');
}
