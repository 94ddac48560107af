/**
 * Records the workflow histories that test/integration/replay.test.ts replays with the current
 * workflow code (`npm run record-histories`). Each is a real run on a dev server of its own:
 * a graph that succeeds, a task that fails then succeeds after a backoff, a lease that expires
 * when a worker process is killed (re-leased), and one that goes to adjudication and is decided.
 *
 * Re-record only when a workflow change is meant to break runs already in flight (and ship it
 * behind a new workflow type or a patch): the replay test failing is what it is there for.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, bundleWorkflowCode } from '@temporalio/worker';
import { journalId } from '../src/agent/types';
import { startTeamRun } from '../src/client';
import { ConfigSchema } from '../src/config/config';
import { findTemporalBinary, freePort, startDevServer } from '../src/devserver';
import type { TeamPlanInput } from '../src/plan/schema';
import { createWorker, workflowsPath } from '../src/worker/create-worker';
import {
  activeClaimsQuery,
  adjudicateUpdate,
  interruptTaskUpdate,
  statusQuery,
  steerTaskUpdate,
} from '../src/workflows/messages';
import { startOpenAiServer, type OpenAiServer } from '../test/helpers/openai-server';

const root = path.resolve(__dirname, '..');
const fixtures = path.join(root, 'test/fixtures/histories');

interface Scenario {
  name: string;
  plan: (dir: string) => TeamPlanInput;
  /** Runs the scenario once the run is started; the in-process worker is started by `startWorker`. */
  drive: (ctx: {
    dir: string;
    client: Client;
    workflowId: string;
    startWorker: () => Promise<void>;
    address: string;
    queue: string;
  }) => Promise<void>;
  /** A local model server for the worker's `worker.llm` (agent scenarios). */
  model?: () => Promise<OpenAiServer>;
  /** Other workflows the run started, recorded beside it under these names (an agent's journal). */
  also?: (workflowId: string) => Array<{ name: string; workflowId: string }>;
}

const wait = async <T>(what: string, check: () => Promise<T> | T, timeoutMs = 60_000): Promise<NonNullable<T>> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await Promise.resolve()
      .then(check)
      .catch(() => undefined);
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

/** A shell whose first attempt hangs and writes its worker's pid, so that worker can be killed. */
const hangsFirst = (dir: string) =>
  `if [ "$TEAMRUN_ATTEMPT" = 1 ]; then echo $PPID > "${dir}/victim.pid"; sleep 60; fi; echo '::teamrun-output::"done"'`;

/** Kills a worker process holding the first attempt, then lets the in-process worker take over. */
async function killTheHolder(ctx: Parameters<Scenario['drive']>[0]): Promise<void> {
  const victim = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/worker/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      TEMPORAL_ADDRESS: ctx.address,
      TEAMRUN_TASK_QUEUE: ctx.queue,
      TEAMRUN_WORKER_IDENTITY: 'fixture-victim',
      TEAMRUN_CONFIG: path.join(root, 'test/helpers/worker.yaml'),
    },
    stdio: 'ignore',
  });
  const pidFile = path.join(ctx.dir, 'victim.pid');
  await wait(
    'the first attempt to start on the victim',
    () => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() === String(victim.pid),
  );
  await ctx.startWorker();
  victim.kill('SIGKILL');
}

const scenarios: Scenario[] = [
  {
    name: 'success',
    plan: () => ({
      name: 'fixture-success',
      teammates: 2,
      tasks: [
        { key: 'fetch', executor: { kind: 'shell', command: `echo '::teamrun-output::{"pages":3}'` } },
        { key: 'render', dependsOn: ['fetch'], executor: { kind: 'sleep', ms: 200 } },
        { key: 'lint', dependsOn: ['fetch'], executor: { kind: 'noop' } },
        {
          key: 'publish',
          dependsOn: ['render', 'lint'],
          executor: { kind: 'shell', command: 'echo "$TEAMRUN_INPUTS"' },
        },
      ],
    }),
    drive: (ctx) => ctx.startWorker(),
  },
  {
    // A task's messages signed by its worker: the first confirmed by a round trip, the others taken on signature
    // (src/workflows/signed-asks.ts, patch teamrun-signed-asks).
    name: 'signed-asks',
    plan: () => {
      const cli = `${process.execPath} ${path.join(root, 'bin/teamrun.js')}`;
      const sends = [1, 2, 3].map((n) => `${cli} send --to reader '{"n":${n}}' >/dev/null`).join(' && ');
      return {
        name: 'fixture-signed-asks',
        tasks: [
          { key: 'writer', executor: { kind: 'shell', command: sends } },
          { key: 'reader', dependsOn: ['writer'], executor: { kind: 'shell', command: 'cat "$TEAMRUN_INBOX"' } },
        ],
      };
    },
    drive: (ctx) => ctx.startWorker(),
  },
  {
    // A governed run's messages and results, sent together: one round trip confirms the worker's key, the messages
    // sent meanwhile wait for it, and the results are taken under it (src/workflows/proof-keys.ts, patch
    // teamrun-shared-proof-keys).
    name: 'shared-proof-keys',
    plan: () => {
      const cli = `${process.execPath} ${path.join(root, 'bin/teamrun.js')}`;
      const senders = [0, 1, 2].map((n) => ({
        key: `sender-${n}`,
        executor: { kind: 'shell' as const, command: `${cli} send --to sink '{"n":${n}}' >/dev/null` },
      }));
      return {
        name: 'fixture-shared-proof-keys',
        teammates: 3,
        governance: { operators: ['ops'] },
        tasks: [
          ...senders,
          {
            key: 'sink',
            dependsOn: senders.map((t) => t.key),
            executor: { kind: 'shell', command: 'cat "$TEAMRUN_INBOX"' },
          },
        ],
      };
    },
    drive: (ctx) => ctx.startWorker(),
  },
  {
    name: 'retry',
    plan: () => ({
      name: 'fixture-retry',
      retry: { maxAttempts: 3, backoffMs: 300 },
      tasks: [
        { key: 'flaky', executor: { kind: 'shell', command: 'test "$TEAMRUN_ATTEMPT" -ge 2' } },
        { key: 'after', dependsOn: ['flaky'], executor: { kind: 'noop' } },
      ],
    }),
    drive: (ctx) => ctx.startWorker(),
  },
  {
    name: 'lease-expiry',
    plan: (dir) => ({
      name: 'fixture-lease-expiry',
      lease: { ttlMs: 2_000 },
      tasks: [{ key: 'build', executor: { kind: 'shell', command: hangsFirst(dir) } }],
    }),
    drive: killTheHolder,
  },
  {
    name: 'lease-adjudicated',
    plan: (dir) => ({
      name: 'fixture-lease-adjudicated',
      lease: { ttlMs: 2_000 },
      tasks: [
        { key: 'migrate', onLeaseLost: 'adjudicate', executor: { kind: 'shell', command: hangsFirst(dir) } },
        { key: 'announce', dependsOn: ['migrate'], executor: { kind: 'noop' } },
      ],
    }),
    drive: async (ctx) => {
      await killTheHolder(ctx);
      const handle = ctx.client.workflow.getHandle(ctx.workflowId);
      await wait(
        'the lost lease to await adjudication',
        async () => (await handle.query(statusQuery)).state === 'awaiting_adjudication',
      );
      await handle.executeUpdate(adjudicateUpdate, {
        args: [
          { key: 'migrate', decision: 'accept', decisionId: 'fixture-accept', actor: 'ops', result: 'checked by hand' },
        ],
      });
    },
  },
  {
    // A long attempt announces its worker's stop queue (the attemptRunning signal); the interrupt
    // then schedules stopAttempts on that queue besides cancelling the attempt.
    name: 'interrupt-stop',
    plan: () => ({
      name: 'fixture-interrupt-stop',
      awaitAdjudication: false,
      lease: { ttlMs: 60_000 },
      tasks: [
        { key: 'hold', executor: { kind: 'shell', command: 'exec sleep 600' } },
        { key: 'after', dependsOn: ['hold'], executor: { kind: 'noop' } },
      ],
    }),
    drive: async (ctx) => {
      await ctx.startWorker();
      const handle = ctx.client.workflow.getHandle(ctx.workflowId);
      await wait('the attempt to announce its stop queue', async () =>
        ((await handle.fetchHistory()).events ?? []).some(
          (e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'attemptRunning',
        ),
      );
      const [claim] = await handle.query(activeClaimsQuery);
      await handle.executeUpdate(interruptTaskUpdate, {
        args: [{ key: 'hold', fencingToken: claim.fencingToken, actor: 'ops' }],
      });
    },
  },
  {
    // An agent steered while its first model call is slow: the steerTask update schedules the
    // steerAgent activity; the worker reports steps with the agentSteps signal.
    name: 'agent-steer',
    plan: () => ({
      name: 'fixture-agent-steer',
      tasks: [{ key: 'write', executor: { kind: 'agent', model: 'fixture', prompt: 'Write', tools: ['teamrun__*'] } }],
    }),
    model: async () => {
      const server = await startOpenAiServer();
      const usage = { promptTokens: 10, completionTokens: 5 };
      server.script('fixture', (r) =>
        r.turn === 1
          ? { usage, delayMs: 3_000, toolCalls: [{ name: 'teamrun__set_output', arguments: { output: 'ok' } }] }
          : { usage, content: 'done' },
      );
      return server;
    },
    drive: async (ctx) => {
      await ctx.startWorker();
      const handle = ctx.client.workflow.getHandle(ctx.workflowId);
      await wait('the attempt to run', async () => (await handle.query(activeClaimsQuery)).length > 0);
      await handle.executeUpdate(steerTaskUpdate, { args: [{ key: 'write', text: 'Be brief.', actor: 'ops' }] });
    },
    also: (workflowId) => [{ name: 'agent-steer-journal', workflowId: journalId(workflowId, 'write') }],
  },
  {
    // An agent whose run fails (its second model call refused for good, 400): the attempt leaves its journal
    // open, and the journal, asking for its run (the journalRunOpen activity), closes by itself.
    name: 'agent-run-failed',
    plan: () => ({
      name: 'fixture-agent-run-failed',
      retry: { maxAttempts: 1 },
      tasks: [
        {
          key: 'write',
          executor: { kind: 'agent', model: 'fixture', prompt: 'Write', tools: ['teamrun__set_output'] },
        },
      ],
    }),
    model: async () => {
      const server = await startOpenAiServer();
      const usage = { promptTokens: 10, completionTokens: 5 };
      server.script('fixture', (r) =>
        r.turn === 1
          ? { usage, toolCalls: [{ name: 'teamrun__set_output', arguments: { output: 'ok' } }] }
          : { status: 400 },
      );
      return server;
    },
    drive: (ctx) => ctx.startWorker(),
    also: (workflowId) => [{ name: 'agent-run-failed-journal', workflowId: journalId(workflowId, 'write') }],
  },
];

async function record(scenario: Scenario, bundlePath: string): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), `teamrun-fixture-${scenario.name}-`));
  const server = await startDevServer({
    binary: findTemporalBinary(),
    port: await freePort(),
    dbFile: path.join(dir, 'dev.db'),
    headless: true,
  });
  const connection = await Connection.connect({ address: server.address });
  const workerConnection = await NativeConnection.connect({ address: server.address });
  const client = new Client({ connection });
  const queue = `fixture-${scenario.name}`;
  const workflowId = `fixture-${scenario.name}`;
  const config = ConfigSchema.parse({ worker: { shutdownGraceMs: 500, shell: { killGraceMs: 1_000 } } });
  config.connection.address = server.address;
  const model = await scenario.model?.();
  if (model) config.worker.llm.baseUrl = model.baseUrl;
  let running: Promise<void> | undefined;
  let stop = () => {};
  try {
    const startWorker = async () => {
      const worker = await createWorker({
        config,
        connection: workerConnection,
        taskQueue: queue,
        identity: 'fixture-worker',
        workflowBundle: { codePath: bundlePath },
      });
      running = worker.run();
      stop = () => worker.shutdown();
    };
    const handle = await startTeamRun(client, scenario.plan(dir), { taskQueue: queue, workflowId });
    await scenario.drive({ dir, client, workflowId, startWorker, address: server.address, queue });
    const result = await handle.result();
    const save = (name: string, id: string, status: string) => {
      // The temporal CLI's JSON is the format `historyFromJSON` reads (and what an operator would export).
      const history = JSON.parse(
        execFileSync(
          findTemporalBinary(),
          ['workflow', 'show', '--workflow-id', id, '--output', 'json', '--address', server.address],
          { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
        ),
      ) as { events: unknown[] };
      mkdirSync(fixtures, { recursive: true });
      const file = path.join(fixtures, `${name}.json`);
      writeFileSync(file, `${JSON.stringify({ workflowId: id, status, history }, null, 1)}\n`);
      console.log(`${path.relative(root, file)}: ${status}, ${history.events.length} events`);
    };
    save(scenario.name, workflowId, result.status);
    console.log(`  ${result.executions} attempts`);
    for (const other of scenario.also?.(workflowId) ?? []) {
      // Recorded once closed (a journal closes when its run does, within a minute).
      const closed = async () => (await client.workflow.getHandle(other.workflowId).describe()).closeTime;
      await wait(`${other.workflowId} to close`, closed, 120_000);
      const { status } = await client.workflow.getHandle(other.workflowId).describe();
      save(other.name, other.workflowId, status.name.toLowerCase());
    }
  } finally {
    stop();
    await running;
    await workerConnection.close();
    await connection.close();
    await server.stop();
    await model?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const only = process.argv.slice(2);
  const bundleDir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-fixture-bundle-'));
  const bundlePath = path.join(bundleDir, 'workflow-bundle.js');
  const quiet = () => undefined;
  const bundle = await bundleWorkflowCode({
    workflowsPath: workflowsPath(),
    logger: { log: quiet, trace: quiet, debug: quiet, info: quiet, warn: quiet, error: console.error },
  });
  writeFileSync(bundlePath, bundle.code);
  try {
    for (const scenario of scenarios.filter((s) => only.length === 0 || only.includes(s.name)))
      await record(scenario, bundlePath);
  } finally {
    rmSync(bundleDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
