import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startJaeger, type RunningJaeger } from '../../src/devserver/jaeger';
import { freePort } from '../../src/devserver/server';
import type { TeamPlanInput } from '../../src/plan/schema';
import { workflowsPath } from '../../src/worker/create-worker';
import { WORKFLOW_TRACING_MODULE } from '../../src/worker/tracing';
import { teamrun } from '../cli/teamrun-cli';
import { spawnWorkerProcess, testClient, uniqueQueue, waitFor } from '../helpers/env';
import { spawnPythonWorker, venvPython } from '../helpers/foreign-workers';
import { jaegerTrace, spanTag, type JaegerSpan } from '../helpers/jaeger';

const root = path.resolve(__dirname, '..', '..');
const quiet = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error: console.error };

let jaeger: RunningJaeger;
let otelBundle: string;
let dir: string;

/** What a traced process needs: the collector, and short batches so a test sees spans within a second. */
const tracingEnv = () => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: jaeger.otlpEndpoint,
  OTEL_BSP_SCHEDULE_DELAY: '200',
});

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-tracing-'));
  // Built from the Go module proxy on first use (minutes, once; cached in .teamrun/jaeger).
  jaeger = await startJaeger({
    ports: { otlp: await freePort(), query: await freePort(), queryGrpc: await freePort() },
    log: (line) => process.stderr.write(`jaeger: ${line}\n`),
  });
  // A traced worker's bundle holds Temporal's workflow interceptors (dist/workflow-bundle-otel.js when built).
  const { code } = await bundleWorkflowCode({
    workflowsPath: workflowsPath(),
    workflowInterceptorModules: [WORKFLOW_TRACING_MODULE],
    logger: quiet,
  });
  otelBundle = path.join(dir, 'workflow-bundle-otel.js');
  writeFileSync(otelBundle, code);
  venvPython();
}, 40 * 60_000);

afterAll(async () => {
  await jaeger?.stop();
});

/** 60 quick tasks: enough history for the run to continue as new at least once (at 200 events). */
const filler = Array.from({ length: 60 }, (_, i) => ({ key: `f${i}`, executor: { kind: 'noop' } as const }));

function tracedPlan(pyQueue: string, hookUrl: string): TeamPlanInput {
  return {
    name: 'traced',
    retry: { maxAttempts: 3, backoffMs: 100 },
    continueAsNewAfterEvents: 200,
    activityQueues: [pyQueue],
    tasks: [
      { key: 'flaky', executor: { kind: 'shell', command: 'test "$TEAMRUN_ATTEMPT" -ge 2' } },
      {
        key: 'child',
        dependsOn: ['flaky'],
        executor: {
          kind: 'shell',
          command: `node ${JSON.stringify(path.join(root, 'test/helpers/traced-child.cjs'))}`,
        },
      },
      { key: 'hook', dependsOn: ['flaky'], executor: { kind: 'http', url: hookUrl, method: 'POST', body: {} } },
      {
        key: 'research',
        dependsOn: ['flaky'],
        executor: { kind: 'activity', activityType: 'research_agent', taskQueue: pyQueue, input: { topic: 'traces' } },
      },
      ...filler.map((task) => ({ ...task, dependsOn: ['flaky'] })),
    ],
  };
}

describe('one trace per team run, in Jaeger', () => {
  it('holds teamrun start, every run of the chain, every attempt with its token, a shell child and a Python activity', async () => {
    const taskQueue = uniqueQueue('traced');
    const pyQueue = uniqueQueue('traced-py');
    // A service the http task calls: it keeps the traceparent header it was sent.
    const traceparents: string[] = [];
    const hook = createServer((req, res) => {
      traceparents.push(String(req.headers.traceparent));
      req.resume();
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => hook.close(() => resolve())));
    const hookPort = (hook.address() as AddressInfo).port;
    const config = path.join(dir, 'worker.yaml');
    // The collector's address reaches the shell task only because the operator passes OTEL_* on.
    writeFileSync(
      config,
      'worker:\n  maxConcurrentAttempts: 8\n  shell:\n    passEnv: ["OTEL_*"]\n' +
        `  http:\n    allowHosts: ["127.0.0.1:${hookPort}"]\n`,
    );
    const loaded = { worker: path.join(dir, 'worker.modules.json'), cli: path.join(dir, 'cli.modules.json') };
    const worker = await spawnWorkerProcess({
      taskQueue,
      identity: 'traced-worker',
      config,
      workflowBundle: otelBundle,
      env: {
        ...tracingEnv(),
        NODE_OPTIONS: `--require ${path.join(root, 'test/helpers/loaded-modules.cjs')}`,
        TEAMRUN_LOADED_MODULES: loaded.worker,
      },
    });
    await spawnPythonWorker(pyQueue, 'traced-python', dir, tracingEnv());
    const planFile = path.join(dir, 'traced.yaml');
    writeFileSync(planFile, JSON.stringify(tracedPlan(pyQueue, `http://127.0.0.1:${hookPort}/hook`)));
    const workflowId = uniqueQueue('traced');

    const started = await teamrun(['start', planFile, '--id', workflowId, '--json', '--task-queue', taskQueue], {
      ...tracingEnv(),
      NODE_OPTIONS: `--require ${path.join(root, 'test/helpers/loaded-modules.cjs')}`,
      TEAMRUN_LOADED_MODULES: loaded.cli,
    });
    expect(started.stderr).not.toMatch(/error/i);
    expect(started.code).toBe(0);
    const client = await testClient();
    const result = (await client.workflow.getHandle(workflowId).result()) as { status: string };
    expect(result.status).toBe('succeeded');

    const wanted = (spans: JaegerSpan[]) => {
      const names = spans.map((s) => s.operationName);
      return (
        names.includes('teamrun start') &&
        names.filter((n) => n === 'RunWorkflow:teamRun').length >= 2 &&
        names.includes('child-work') &&
        names.includes('RunActivity:research_agent') &&
        names.filter((n) => n.startsWith('attempt ')).length >= 64
      );
    };
    const trace = await waitFor(
      'the run whole in one trace',
      async () => {
        const found = await jaegerTrace(jaeger.queryUrl, 'teamrun-client', { 'teamrun.run_id': workflowId });
        return found && wanted(found.spans) ? found : null;
      },
      60_000,
      500,
    );

    const byName = (name: string) => trace.spans.filter((s) => s.operationName === name);
    // teamrun start opened the trace: it is the one span without a parent.
    expect(trace.spans.filter((s) => s.references.length === 0).map((s) => s.operationName)).toEqual(['teamrun start']);
    expect(trace.serviceOf(byName('teamrun start')[0])).toBe('teamrun-client');
    // The chain: the run continued as new, and each run is in the trace.
    expect(byName('RunWorkflow:teamRun').length).toBeGreaterThanOrEqual(2);
    expect(byName('ContinueAsNew:teamRun').length).toBeGreaterThanOrEqual(1);
    // Every attempt, the retried one twice, with its token and lease.
    const flaky = trace.spans
      .filter((s) => spanTag(s, 'teamrun.task.key') === 'flaky')
      .filter((s) => s.operationName.startsWith('attempt '));
    expect(
      flaky.map((s) => [
        spanTag(s, 'teamrun.attempt'),
        spanTag(s, 'teamrun.fencing_token'),
        spanTag(s, 'teamrun.outcome'),
      ]),
    ).toEqual(
      expect.arrayContaining([
        [1, 1, 'failed'],
        [2, 2, 'succeeded'],
      ]),
    );
    expect(flaky).toHaveLength(2);
    for (const span of flaky) {
      expect(spanTag(span, 'teamrun.run_id')).toBe(workflowId);
      expect(spanTag(span, 'teamrun.holder')).toMatch(/^teammate-/);
      expect(spanTag(span, 'teamrun.lease.ttl_ms')).toBeGreaterThan(0);
    }
    const attempts = trace.spans.filter((s) => s.operationName.startsWith('attempt '));
    // Every attempt of teamrun's own executors (`activity` tasks run on their own workers: below).
    expect(new Set(attempts.map((s) => spanTag(s, 'teamrun.task.key')))).toEqual(
      new Set(['flaky', 'child', 'hook', ...filler.map((t) => t.key)]),
    );
    // The shell task's own program continued the trace from TRACEPARENT, under its attempt's span.
    const [childWork] = byName('child-work');
    const childAttempt = attempts.find((s) => spanTag(s, 'teamrun.task.key') === 'child')!;
    expect(childWork.references[0].spanID).toBe(childAttempt.spanID);
    expect(trace.serviceOf(childWork)).toBe('traced-child');
    // The http task's service was sent the trace, naming its attempt's span as the parent.
    const hookAttempt = attempts.find((s) => spanTag(s, 'teamrun.task.key') === 'hook')!;
    expect(traceparents).toEqual([`00-${trace.traceID.padStart(32, '0')}-${hookAttempt.spanID.padStart(16, '0')}-01`]);
    // The Python worker's activity joined through Temporal's headers.
    const [python] = byName('RunActivity:research_agent');
    expect(trace.serviceOf(python)).toBe('teamrun-python-worker');
    expect([spanTag(python, 'teamrun.task.key'), spanTag(python, 'teamrun.fencing_token')]).toEqual(['research', 1]);

    // With tracing on, the worker and the CLI loaded the exporter (tracing.test's counterpart: tracing-off.test).
    worker.child.kill('SIGTERM');
    await worker.exited;
    for (const file of [loaded.worker, loaded.cli]) {
      const modules = JSON.parse(readFileSync(file, 'utf8')) as string[];
      expect(modules.some((m) => m.includes('exporter-trace-otlp-http'))).toBe(true);
    }
  });
});
