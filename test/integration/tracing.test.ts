import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startPhoenix, type RunningPhoenix } from '../../src/devserver/phoenix';
import { freePort } from '../../src/devserver/server';
import type { TeamPlanInput } from '../../src/plan/schema';
import { workflowsPath } from '../../src/worker/create-worker';
import { WORKFLOW_TRACING_MODULE } from '../../src/worker/tracing';
import { teamrun } from '../cli/teamrun-cli';
import { spawnWorkerProcess, testClient, uniqueQueue, waitFor } from '../helpers/env';
import { goTestWorker, spawnGoWorker, spawnPythonWorker, venvPython } from '../helpers/foreign-workers';
import { phoenixSpans, phoenixTrace, type PhoenixSpan, type PhoenixTrace } from '../helpers/phoenix';

const root = path.resolve(__dirname, '..', '..');
const quiet = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error: console.error };

let phoenix: RunningPhoenix;
let otelBundle: string;
let dir: string;

/** What a traced process needs: the collector, and short batches so a test sees spans within a second. */
const tracingEnv = () => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: phoenix.otlpEndpoint,
  OTEL_BSP_SCHEDULE_DELAY: '200',
});

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-tracing-'));
  // Installed from PyPI into .teamrun/phoenix-venv on first use (a minute or two, once); its data in `dir`.
  phoenix = await startPhoenix({
    ports: { http: await freePort(), grpc: await freePort() },
    workingDir: path.join(dir, 'phoenix'),
    log: (line) => process.stderr.write(`phoenix: ${line}\n`),
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
  goTestWorker();
}, 15 * 60_000);

afterAll(async () => {
  await phoenix?.stop();
});

/** 60 quick tasks: enough history for the run to continue as new at least once (at 200 events). */
const filler = Array.from({ length: 60 }, (_, i) => ({ key: `f${i}`, executor: { kind: 'noop' } as const }));

function tracedPlan(pyQueue: string, goQueue: string, hookUrl: string): TeamPlanInput {
  return {
    name: 'traced',
    retry: { maxAttempts: 3, backoffMs: 100 },
    continueAsNewAfterEvents: 200,
    activityQueues: [pyQueue, goQueue],
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
      {
        key: 'go-research',
        dependsOn: ['flaky'],
        executor: { kind: 'activity', activityType: 'go_research', taskQueue: goQueue, input: { topic: 'traces' } },
      },
      ...filler.map((task) => ({ ...task, dependsOn: ['flaky'] })),
    ],
  };
}

describe('one trace per team run, in Phoenix', () => {
  it('holds teamrun start, every run of the chain, a span per task over its attempts with their tokens, a shell child, a Python and a Go activity', async () => {
    const taskQueue = uniqueQueue('traced');
    const pyQueue = uniqueQueue('traced-py');
    const goQueue = uniqueQueue('traced-go');
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
    await spawnGoWorker(goQueue, 'traced-go', dir, { ...tracingEnv(), OTEL_BSP_SCHEDULE_DELAY: '200' });
    const planFile = path.join(dir, 'traced.yaml');
    writeFileSync(planFile, JSON.stringify(tracedPlan(pyQueue, goQueue, `http://127.0.0.1:${hookPort}/hook`)));
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

    const wanted = (t: PhoenixTrace) => {
      const names = t.spans.map((s) => s.name);
      return (
        names.includes('teamrun start') &&
        names.filter((n) => n === 'RunWorkflow:teamRun').length >= 2 &&
        names.includes('child-work') &&
        names.includes('RunActivity:research_agent') &&
        names.includes('RunActivity:go_research') &&
        names.filter((n) => n.startsWith('attempt ')).length >= 64 &&
        names.filter((n) => n.startsWith('task ')).length >= 65
      );
    };
    const trace = await waitFor(
      'the run whole in one trace',
      async () => {
        const found = await phoenixTrace(phoenix.url, `teamrun.run_id:${workflowId}`);
        return found && wanted(found) ? found : null;
      },
      120_000,
      1_000,
    );
    const attr = (span: PhoenixSpan | undefined, key: string) => span?.attributes[key];

    // teamrun start opened the trace: it is the one span without a parent.
    expect(trace.spans.filter((s) => s.parentId === null).map((s) => s.name)).toEqual(['teamrun start']);
    // The chain: the run continued as new, and each run is in the trace.
    expect(trace.byName('RunWorkflow:teamRun').length).toBeGreaterThanOrEqual(2);
    expect(trace.byName('ContinueAsNew:teamRun').length).toBeGreaterThanOrEqual(1);
    // Every attempt, the retried one twice, with its token and lease.
    const attempts = trace.spans.filter((s) => s.name.startsWith('attempt '));
    const flaky = attempts.filter((s) => attr(s, 'teamrun.task.key') === 'flaky');
    expect(
      flaky.map((s) => [attr(s, 'teamrun.attempt'), attr(s, 'teamrun.fencing_token'), attr(s, 'teamrun.outcome')]),
    ).toEqual(
      expect.arrayContaining([
        [1, 1, 'failed'],
        [2, 2, 'succeeded'],
      ]),
    );
    expect(flaky).toHaveLength(2);
    for (const span of flaky) {
      expect(attr(span, 'teamrun.run_id')).toBe(workflowId);
      expect(attr(span, 'teamrun.holder')).toMatch(/^teammate-/);
      expect(attr(span, 'teamrun.lease.ttl_ms')).toBeGreaterThan(0);
      expect(span.kind).toBe('CHAIN');
    }
    // A span per task, from its claim to its settlement: both of flaky's attempts are beneath the one
    // span of its task, which sits under a run of the chain and says how the task ended.
    const [flakyTask, ...moreFlakyTasks] = trace.byName('task flaky');
    expect(moreFlakyTasks).toEqual([]);
    expect([attr(flakyTask, 'teamrun.outcome'), attr(flakyTask, 'teamrun.attempts')]).toEqual(['succeeded', 2]);
    expect(trace.parentOf(flakyTask)?.name).toBe('RunWorkflow:teamRun');
    for (const span of flaky) {
      expect(trace.ancestors(span).slice(0, 3)).toEqual(['RunActivity:runTask', 'StartActivity:runTask', 'task flaky']);
    }
    // Each attempt's StartActivity span ends with its activity, as Temporal's interceptor ends it: failed, then ok.
    const scheduled = (span: PhoenixSpan) => trace.parentOf(trace.parentOf(span)!)!;
    expect(flaky.map((s) => [attr(s, 'teamrun.attempt'), scheduled(s).name, scheduled(s).statusCode]).sort()).toEqual([
      [1, 'StartActivity:runTask', 'ERROR'],
      [2, 'StartActivity:runTask', 'OK'],
    ]);
    // Every attempt of teamrun's own executors (`activity` tasks run on their own workers: below).
    expect(new Set(attempts.map((s) => attr(s, 'teamrun.task.key')))).toEqual(
      new Set(['flaky', 'child', 'hook', ...filler.map((t) => t.key)]),
    );
    for (const span of attempts)
      expect(trace.ancestors(span)).toContain(`task ${String(attr(span, 'teamrun.task.key'))}`);
    // The shell task's own program continued the trace from TRACEPARENT, under its attempt's span.
    const [childWork] = trace.byName('child-work');
    const childAttempt = attempts.find((s) => attr(s, 'teamrun.task.key') === 'child')!;
    expect(childWork.parentId).toBe(childAttempt.spanId);
    // The http task's service was sent the trace, naming its attempt's span as the parent.
    const hookAttempt = attempts.find((s) => attr(s, 'teamrun.task.key') === 'hook')!;
    expect(traceparents).toEqual([`00-${trace.traceId}-${hookAttempt.spanId}-01`]);
    // The Python and the Go workers' activities joined through Temporal's headers, under their task's span.
    const [python] = trace.byName('RunActivity:research_agent');
    expect([attr(python, 'teamrun.task.key'), attr(python, 'teamrun.fencing_token')]).toEqual(['research', 1]);
    expect(trace.ancestors(python).slice(0, 2)).toEqual(['StartActivity:research_agent', 'task research']);
    const [go] = trace.byName('RunActivity:go_research');
    expect([attr(go, 'teamrun.task.key'), attr(go, 'teamrun.fencing_token')]).toEqual(['go-research', 1]);
    expect(trace.ancestors(go).slice(0, 2)).toEqual(['StartActivity:go_research', 'task go-research']);
    expect(attr(trace.byName('task go-research')[0], 'teamrun.outcome')).toBe('succeeded');

    // A worker given a bundle is not told to add the interceptors too (the SDK would warn that it ignores them).
    expect(worker.output()).not.toContain('Ignoring WorkerOptions.interceptors.workflowModules');
    // With tracing on, the worker and the CLI loaded the protobuf exporter (tracing.test's counterpart: tracing-off.test).
    worker.child.kill('SIGTERM');
    await worker.exited;
    for (const file of [loaded.worker, loaded.cli]) {
      const modules = JSON.parse(readFileSync(file, 'utf8')) as string[];
      expect(modules.some((m) => m.includes('otlp-transformer'))).toBe(true);
    }
  }, 300_000);

  it('exports the span of a CLI command that fails, with its error', async () => {
    const planFile = path.join(dir, 'unpolled.json');
    writeFileSync(planFile, JSON.stringify({ name: 'unpolled', tasks: [{ key: 'a', executor: { kind: 'noop' } }] }));
    // Nobody polls this queue: the first start leaves the run open, so a second start of the same id fails.
    const args = ['start', planFile, '--id', uniqueQueue('traced-twice'), '--task-queue', uniqueQueue('unpolled')];
    const client = await testClient();
    onTestFinished(() =>
      client.workflow
        .getHandle(args[3])
        .terminate('test over')
        .then(() => undefined),
    );
    // The default batch delay (5 s): the span leaves before the exit only because the failure path flushes it.
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: phoenix.otlpEndpoint };
    expect((await teamrun(args, env)).code).toBe(0);
    const again = await teamrun(args, env);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/already/i);
    const failed = await waitFor(
      'the failed start in Phoenix',
      async () => {
        const found = await phoenixSpans(phoenix.url, { attribute: `teamrun.run_id:${args[3]}`, status_code: 'ERROR' });
        return found.length ? found : null;
      },
      60_000,
      500,
    );
    expect(failed.map((s) => s.name)).toEqual(['teamrun start']);
  });
});
