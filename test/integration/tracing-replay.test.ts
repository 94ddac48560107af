import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker, bundleWorkflowCode } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTeamRun } from '../../src/client';
import type { TeamPlanInput } from '../../src/plan/schema';
import { workflowsPath } from '../../src/worker/create-worker';
import { WORKFLOW_TRACING_MODULE } from '../../src/worker/tracing';
import { spawnWorkerProcess, testClient, uniqueQueue, waitFor } from '../helpers/env';
import { startOtlpCollector, type OtlpCollector } from '../helpers/otlp-collector';

/**
 * A traced worker's bundle holds teamrun's workflow interceptors (src/sdk/workflow-tracing.ts): Temporal's, with a
 * `scheduleActivity` that makes fewer promises, behind a patch. Runs recorded by a worker with Temporal's own
 * interceptors must replay on the new bundle without a nondeterminism error, and new runs on it too.
 */
const TEMPORAL_MODULE = require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors');
const SYNC_ACTIVITY_SPANS = 'teamrun-sync-activity-spans';
const quiet = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error: console.error };

let dir: string;
let bundles: { temporal: string; teamrun: string };
/** Where the traced workers send their spans: the test reads none of them. */
let collector: OtlpCollector;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-tracing-replay-'));
  collector = await startOtlpCollector();
  const bundle = async (name: string, module: string) => {
    const { code } = await bundleWorkflowCode({
      workflowsPath: workflowsPath(),
      workflowInterceptorModules: [module],
      logger: quiet,
    });
    const file = path.join(dir, name);
    writeFileSync(file, code);
    return file;
  };
  bundles = {
    temporal: await bundle('bundle-temporal-otel.js', TEMPORAL_MODULE),
    teamrun: await bundle('bundle-teamrun-otel.js', WORKFLOW_TRACING_MODULE),
  };
}, 5 * 60_000);

afterAll(() => collector?.close());

/**
 * Activities that settle beside timers, signals and updates in the same workflow tasks: a retried task (its backoff
 * timer), ten at once, and an approval decided while they run.
 */
const plan: TeamPlanInput = {
  name: 'traced-replay',
  teammates: 4,
  retry: { maxAttempts: 3, backoffMs: 50 },
  tasks: [
    { key: 'flaky', executor: { kind: 'shell', command: 'test "$TEAMRUN_ATTEMPT" -ge 2' } },
    { key: 'gate', executor: { kind: 'approval' } },
    ...Array.from({ length: 10 }, (_, i) => ({ key: `n${i}`, executor: { kind: 'sleep' as const, ms: 20 * i } })),
    { key: 'after', dependsOn: ['flaky', 'gate'], executor: { kind: 'noop' } },
  ],
};

/** Runs the plan on a traced worker with `bundle`; answers the run's history. */
async function recordedOn(bundle: string) {
  const taskQueue = uniqueQueue('traced-replay');
  const worker = await spawnWorkerProcess({
    taskQueue,
    identity: 'traced-replay-worker',
    workflowBundle: bundle,
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint },
  });
  try {
    const client = await testClient();
    const handle = await startTeamRun(client, plan, { taskQueue, workflowId: uniqueQueue('traced-replay') });
    await waitFor('the approval to wait', async () => (await handle.adjudications()).some((a) => a.key === 'gate'));
    await handle.adjudicate({ key: 'gate', decision: 'accept', decisionId: 'open', actor: 'ops' });
    expect((await handle.result()).status).toBe('succeeded');
    return { workflowId: handle.workflowId, history: await handle.fetchHistory() };
  } finally {
    worker.child.kill('SIGTERM');
    await worker.exited;
  }
}

function patchMarkers(history: Awaited<ReturnType<typeof recordedOn>>['history']): string[] {
  return (history.events ?? [])
    .map((e) => e.markerRecordedEventAttributes?.details?.['patch-data']?.payloads?.[0]?.data)
    .filter((d): d is Uint8Array => !!d)
    .map((d) => Buffer.from(d).toString('utf8'));
}

describe("a traced worker's workflow interceptors", () => {
  it("replay runs recorded with Temporal's own interceptors, and their own, without a nondeterminism error", async () => {
    const old = await recordedOn(bundles.temporal);
    const fresh = await recordedOn(bundles.teamrun);
    // The old run never took the new path; the new one did (its patch marker).
    expect(patchMarkers(old.history).join(' ')).not.toContain(SYNC_ACTIVITY_SPANS);
    expect(patchMarkers(fresh.history).join(' ')).toContain(SYNC_ACTIVITY_SPANS);
    const results: Array<{ workflowId: string; error: string | null }> = [];
    for await (const result of Worker.runReplayHistories({ workflowBundle: { codePath: bundles.teamrun } }, [
      old,
      fresh,
    ]))
      results.push({ workflowId: result.workflowId, error: result.error ? String(result.error) : null });
    expect(results).toEqual([
      { workflowId: old.workflowId, error: null },
      { workflowId: fresh.workflowId, error: null },
    ]);
  }, 240_000);
});
