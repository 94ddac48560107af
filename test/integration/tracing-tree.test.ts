import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPhoenix, type RunningPhoenix } from '../../src/devserver/phoenix';
import { freePort } from '../../src/devserver/server';
import type { TeamPlanInput } from '../../src/plan/schema';
import { workflowsPath } from '../../src/worker/create-worker';
import { WORKFLOW_TRACING_MODULE } from '../../src/worker/tracing';
import { teamrun } from '../cli/teamrun-cli';
import { spawnWorkerProcess, testClient, uniqueQueue, waitFor } from '../helpers/env';
import { phoenixSpans, phoenixTrace, type PhoenixSpan, type PhoenixTrace } from '../helpers/phoenix';

const quiet = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error: console.error };

let phoenix: RunningPhoenix;
let otelBundle: string;
let dir: string;

/** What a traced process needs: the collector, and short batches so a test sees spans within a second. */
const tracingEnv = () => ({ OTEL_EXPORTER_OTLP_ENDPOINT: phoenix.otlpEndpoint, OTEL_BSP_SCHEDULE_DELAY: '200' });

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-tracing-tree-'));
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
}, 15 * 60_000);

afterAll(async () => {
  await phoenix?.stop();
});

/** root -> team task A -> (a1, team task B -> (a shell task `leaf`)). */
const treePlan: TeamPlanInput = {
  name: 'traced-tree',
  awaitAdjudication: false,
  tasks: [
    { key: 'r', executor: { kind: 'noop' } },
    {
      key: 'A',
      executor: {
        kind: 'team',
        plan: {
          name: 'level-1',
          awaitAdjudication: false,
          tasks: [
            { key: 'a1', executor: { kind: 'shell', command: 'true' } },
            {
              key: 'B',
              executor: {
                kind: 'team',
                plan: {
                  name: 'level-2',
                  awaitAdjudication: false,
                  tasks: [{ key: 'leaf', executor: { kind: 'shell', command: 'echo leaf' } }],
                },
              },
            },
          ],
        },
      },
    },
  ],
} as TeamPlanInput;

describe('a tree of teams is one trace', () => {
  it("every span of the root, its child and its grandchild has the root's trace id, and the grandchild's shell attempt reaches the root's run through A's and B's task spans", async () => {
    const taskQueue = uniqueQueue('traced-tree');
    const worker = await spawnWorkerProcess({
      taskQueue,
      identity: 'traced-tree-worker',
      workflowBundle: otelBundle,
      env: tracingEnv(),
    });
    const planFile = path.join(dir, 'tree.json');
    writeFileSync(planFile, JSON.stringify(treePlan));
    const rootId = uniqueQueue('traced-tree');
    const started = await teamrun(
      ['start', planFile, '--id', rootId, '--json', '--task-queue', taskQueue],
      tracingEnv(),
    );
    expect(started.code).toBe(0);
    const client = await testClient();
    const result = (await client.workflow.getHandle(rootId).result()) as { status: string };
    expect(result.status).toBe('succeeded');
    const aId = `${rootId}/A#1`;
    const bId = `${aId}/B#1`;

    const attr = (span: PhoenixSpan | undefined, key: string) => span?.attributes[key];
    const isAttempt = (s: PhoenixSpan, run: string, key: string) =>
      s.name.startsWith(`attempt ${key}#`) && attr(s, 'teamrun.run_id') === run;
    // Every level's spans have arrived: the grandchild's shell attempt (in whichever trace), and the root's run
    // span (the parent of its task r), which ends after every other span of the tree and leaves the worker last.
    await waitFor(
      "the grandchild's shell attempt span",
      async () =>
        (await phoenixSpans(phoenix.url, { attribute: `teamrun.run_id:${bId}` })).some((s) =>
          isAttempt(s, bId, 'leaf'),
        ),
      120_000,
      1_000,
    );
    const trace: PhoenixTrace = await waitFor(
      "the root's trace, its run span ended",
      async () => {
        const found = await phoenixTrace(phoenix.url, `teamrun.run_id:${rootId}`);
        const taskR = found?.byName('task r')[0];
        return found && taskR && found.parentOf(taskR) && found.byName('teamrun start').length ? found : null;
      },
      120_000,
      1_000,
    );

    // Every span of each of the three runs (by its run id) is in the root's trace, and nothing left outside it.
    for (const run of [rootId, aId, bId]) {
      const spans = await phoenixSpans(phoenix.url, { attribute: `teamrun.run_id:${run}` });
      expect(spans.length, run).toBeGreaterThan(0);
      expect(new Set(spans.map((s) => s.traceId)), run).toEqual(new Set([trace.traceId]));
    }
    // One root: teamrun start opened the trace, and every level's run span is a span of it (the chain below names
    // each; at least, as a loaded machine may repeat a workflow task).
    expect(trace.spans.filter((s) => s.parentId === null).map((s) => s.name)).toEqual(['teamrun start']);
    expect(trace.byName('RunWorkflow:teamRun').length).toBeGreaterThanOrEqual(3);
    expect(trace.byName('StartChildWorkflow:teamRun').length).toBeGreaterThanOrEqual(2);

    // The chain of parent span ids from the grandchild's shell attempt up to `teamrun start`.
    const leaf = trace.spans.find((s) => isAttempt(s, bId, 'leaf'))!;
    const chain: PhoenixSpan[] = [];
    for (let s = trace.parentOf(leaf); s; s = trace.parentOf(s)) chain.push(s);
    const described = chain.map((s) => {
      const run = attr(s, 'teamrun.run_id');
      return typeof run === 'string' ? `${s.name} @ ${run}` : s.name;
    });
    expect(described).toEqual([
      'RunActivity:runTask',
      'StartActivity:runTask',
      `task leaf @ ${bId}`,
      'RunWorkflow:teamRun',
      'StartChildWorkflow:teamRun',
      `task B @ ${aId}`,
      'RunWorkflow:teamRun',
      'StartChildWorkflow:teamRun',
      `task A @ ${rootId}`,
      'RunWorkflow:teamRun',
      'StartWorkflow:teamRun',
      `teamrun start @ ${rootId}`,
    ]);
    // The chain holds each level's task span that is in the trace: A's (one, in the root) and B's (one, in A).
    expect(chain.map((s) => s.spanId)).toEqual(
      expect.arrayContaining([...trace.byName('task A'), ...trace.byName('task B')].map((s) => s.spanId)),
    );
    // B's shell sibling in A is under its own task's span, beneath A's task span in the root.
    const a1 = trace.spans.find((s) => isAttempt(s, aId, 'a1'))!;
    expect(trace.ancestors(a1)).toEqual(expect.arrayContaining(['task a1', 'task A']));

    worker.child.kill('SIGTERM');
    await worker.exited;
  }, 300_000);
});
