import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { teamRunHandle, teamRunResult, type TeamRunHandle } from '../../src/client';
import type { TeamPlanInput } from '../../src/plan/schema';
import { startRun, temporalAddress, testClient, testConfig, uniqueQueue, waitFor } from '../helpers/env';
import { startOpenAiServer, toolExchanges, type RecordedRequest, type Reply } from '../helpers/openai-server';
import { eventsOf, updateCodeOf, workerForTest, type OnTestFinished } from '../helpers/scenario';

const root = path.resolve(__dirname, '..', '..');
const cliMain = path.join(root, 'dist/main.js');
const KEY_ENV = 'TEAMRUN_TEST_AGENT_KEY';
const ACTOR = 'coordinator-bot';
const usage = { promptTokens: 100, completionTokens: 20 };

/** A team whose one task runs for ten minutes: it ends only when someone ends its run. */
function longTeam(name: string, governed: boolean): TeamPlanInput {
  return {
    name,
    teammates: 1,
    ...(governed ? { governance: { operators: [ACTOR] } } : {}),
    tasks: [{ key: 'work', executor: { kind: 'shell', command: 'exec sleep 600' } }],
  };
}

/**
 * The coordinator's model: starts the two teams of its prompt with start_run, one after the other, then watches the
 * first with long run_status waits until its attempt is stopped. A start_run error ends it with the error as its
 * output; a run_status error (a wait cut short on a loaded machine) is printed and the watch goes on, as a
 * coordinator would: the tests need its run open until they stop it.
 */
function coordinator(request: RecordedRequest): Reply {
  const call = (name: string, args: Record<string, unknown>): Reply => ({
    usage,
    toolCalls: [{ name, arguments: args }],
  });
  const done = toolExchanges(request);
  const last = done.at(-1);
  if (last?.name === 'teamrun__set_output') return { usage, content: 'done' };
  const watchFailed = last?.name === 'control__run_status' && last.content?.startsWith('error:');
  if (watchFailed) process.stderr.write(`[coordinated-runs] run_status failed, watching again: ${last.content}\n`);
  else if (last?.content?.startsWith('error:')) return call('teamrun__set_output', { output: { error: last.content } });
  const starts = done.filter((d) => d.name === 'control__start_run');
  if (starts.length < 2) {
    const prompt = request.messages.find((m) => m.role === 'user')?.content ?? '';
    const plans = JSON.parse(prompt.slice(prompt.indexOf('['))) as unknown[];
    return call('control__start_run', { plan: plans[starts.length] });
  }
  const { runId } = JSON.parse(starts[0].content!) as { runId: string };
  // As the tool asks: the cursor of the last answer back, so that the call waits for a change (without one it answers
  // at once, and the watch spent its 40 turns in about 20 s on a quiet machine, ending the coordinator's run).
  const watched = done.filter((d) => d.name === 'control__run_status' && !d.content?.startsWith('error:')).at(-1);
  const cursor = watched ? (JSON.parse(watched.content!) as { cursor?: string }).cursor : undefined;
  return call('control__run_status', { runId, waitMs: 30_000, ...(cursor ? { cursor } : {}) });
}

/** A worker whose agents reach this queue's control plane through `teamrun mcp` (a stdio tool server per attempt). */
async function coordinatorWorker(finished: OnTestFinished, worker: Record<string, unknown> = {}) {
  const server = await startOpenAiServer();
  finished(() => server.close());
  server.script('gpt-4o-mini', coordinator);
  const taskQueue = uniqueQueue('coordinated');
  const control = {
    command: process.execPath,
    args: [cliMain, 'mcp', '--address', temporalAddress(), '--task-queue', taskQueue, '--actor', ACTOR],
    // Its start_run goes through the attempt's gateway, so the run is linked to the attempt.
    attemptAccess: true,
  };
  const config = testConfig({
    llm: { baseUrl: server.baseUrl, apiKeyEnv: KEY_ENV },
    mcpServers: { control },
    ...worker,
  });
  const started = await workerForTest({ taskQueue, config, env: { [KEY_ENV]: 'sk-agent' } }, finished);
  return { server, taskQueue: started.taskQueue };
}

/** The coordinator's run: one agent task told to start these plans. */
function coordinatorPlan(plans: TeamPlanInput[]): TeamPlanInput {
  return {
    name: 'coordinator',
    teammates: 1,
    governance: { operators: ['alice'] },
    tasks: [
      {
        key: 'coordinate',
        executor: {
          kind: 'agent',
          model: 'gpt-4o-mini',
          maxTurns: 40,
          tools: ['control__*', 'teamrun__set_output'],
          instructions: 'Start each plan you are given with control__start_run, then watch the first.',
          prompt: `Start these plans: ${JSON.stringify(plans)}`,
        },
      },
    ],
  };
}

/** Starts the coordinator and waits until its agent has started both teams; their handles, as start_run answered. */
async function coordinatorWithTwoRuns(finished: OnTestFinished) {
  const { server, taskQueue } = await coordinatorWorker(finished);
  const plans = [longTeam('team-a', false), longTeam('team-b', true)];
  const outer = await startRun(coordinatorPlan(plans), taskQueue);
  const client = await testClient();
  finished(async () => {
    await outer.terminate('test finished').catch(() => undefined);
  });
  const answers = await waitFor(
    'the coordinator to start two runs',
    () => {
      const last = server.requests.at(-1);
      const starts = last ? toolExchanges(last).filter((e) => e.name === 'control__start_run') : [];
      return starts.length === 2 && starts.every((s) => s.content !== null) ? starts.map((s) => s.content!) : null;
    },
    90_000,
  );
  const started = answers.map((text) => {
    expect(text).not.toMatch(/^error:/);
    return JSON.parse(text) as { runId: string; startedBy: unknown };
  });
  const inner = started.map(({ runId }) => teamRunHandle(client, runId));
  finished(async () => {
    for (const handle of inner) await handle.terminate('test finished').catch(() => undefined);
  });
  // Each inner run is under way (its task running) before the coordinator is stopped.
  for (const handle of inner)
    await waitFor('the inner run to claim its task', async () => (await handle.activeClaims()).length === 1, 60_000);
  return { outer, inner, started, taskQueue, client };
}

/** The run's end however it closed (an abort, then Temporal's cancellation, may close it as Canceled). */
async function endOf(handle: TeamRunHandle) {
  const result = await teamRunResult(handle);
  const [abort] = await eventsOf(handle, 'run:abort-requested');
  return { status: result.status, abort };
}

describe("a coordinator's runs (start_run through teamrun mcp inside an agent task)", () => {
  it("interrupting the coordinator's task aborts both runs it started, naming the task; a run started by hand from outside meanwhile is untouched", async ({
    onTestFinished,
  }) => {
    const { outer, inner, taskQueue } = await coordinatorWithTwoRuns(onTestFinished);
    const outside = await startRun(longTeam('by-hand', false), taskQueue);
    onTestFinished(async () => {
      await outside.terminate('test finished').catch(() => undefined);
    });
    await waitFor('the outside run to claim', async () => (await outside.activeClaims()).length === 1, 60_000);

    const verdict = await outer.interrupt({ key: 'coordinate', actor: 'alice', reason: 'enough' });
    expect(verdict.ok).toBe(true);
    for (const handle of inner) {
      const { status, abort } = await endOf(handle);
      expect(status).toBe('aborted');
      expect(abort).toMatchObject({
        code: 'TEAM_COORDINATOR_ENDED',
        reason: `the coordinator task "coordinate" (fencing token 1) of run ${outer.workflowId} was interrupted by alice: enough`,
      });
    }
    // The governed team took the abort from the actor that started it; its task was stopped, not adjudicated.
    expect((await endOf(inner[1])).abort).toMatchObject({ actor: ACTOR });
    // The run started by hand from outside runs on, its task still holding its first attempt.
    expect((await outside.status()).state).toBe('running');
    expect(await outside.activeClaims()).toMatchObject([{ key: 'work', attempt: 1, interrupted: false }]);
    expect((await outside.describe()).memo?.startedBy).toBeUndefined();
  });

  it("aborting the coordinator's run aborts both runs it started, each showing which run and task started it", async ({
    onTestFinished,
  }) => {
    const { outer, inner, started } = await coordinatorWithTwoRuns(onTestFinished);
    const startedBy = { run: outer.workflowId, task: 'coordinate', fencingToken: 1 };
    // The link, as start_run answered it and as `temporal workflow describe` shows it (the run's memo).
    for (const [i, handle] of inner.entries()) {
      expect(started[i].startedBy).toEqual(startedBy);
      expect((await handle.describe()).memo?.startedBy).toEqual(startedBy);
    }
    // The coordinator's run recorded each link with the attempt.
    const links = await eventsOf(outer, 'task:run-linked');
    expect(links.map((e) => e.runId).sort()).toEqual(inner.map((h) => h.workflowId).sort());

    await outer.abort({ actor: 'alice', reason: 'stop everything' });
    for (const handle of inner) {
      const { status, abort } = await endOf(handle);
      expect(status).toBe('aborted');
      expect(abort).toMatchObject({
        code: 'TEAM_COORDINATOR_ENDED',
        reason: `the coordinator task "coordinate" (fencing token 1) of run ${outer.workflowId} ended with its run aborted: stop everything`,
      });
    }
  });

  it('nobody but the attempt links a run to its task: an operator naming a run, or a made-up proof, is refused', async ({
    onTestFinished,
  }) => {
    const { outer, inner, taskQueue } = await coordinatorWithTwoRuns(onTestFinished);
    const victim = await startRun(longTeam('victim', false), taskQueue);
    onTestFinished(async () => {
      await victim.terminate('test finished').catch(() => undefined);
    });
    const link = (extra: Record<string, unknown>) =>
      updateCodeOf(
        outer.executeUpdate('linkRun', {
          args: [{ key: 'coordinate', fencingToken: 1, runId: victim.workflowId, ...extra }],
        }),
      );
    expect(await link({ actor: 'alice' })).toBe('forbidden');
    expect(await link({ attempt: { queue: `${taskQueue}-nobody`, nonce: 'A'.repeat(24) } })).toBe('forbidden');
    await outer.abort({ actor: 'alice', reason: 'done' });
    for (const handle of inner) expect((await endOf(handle)).status).toBe('aborted');
    // The coordinator's end reached its own two runs only.
    expect((await victim.status()).state).toBe('running');
    expect((await eventsOf(outer, 'task:run-linked')).map((e) => e.runId)).not.toContain(victim.workflowId);
  });

  it('teamrun start inside a shell task starts the run through its worker, linked: interrupting the task aborts it', async ({
    onTestFinished,
  }) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-coordinated-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const planFile = path.join(dir, 'team.json');
    const out = path.join(dir, 'started.json');
    writeFileSync(planFile, JSON.stringify(longTeam('from-shell', false)));
    const worker = await workerForTest({ config: testConfig() }, onTestFinished);
    const outer = await startRun(
      {
        name: 'shell-coordinator',
        teammates: 1,
        tasks: [
          {
            key: 'lead',
            executor: { kind: 'shell', command: `teamrun start ${planFile} --json > ${out}; exec sleep 600` },
          },
        ],
      },
      worker.taskQueue,
    );
    onTestFinished(async () => {
      await outer.terminate('test finished').catch(() => undefined);
    });
    const started = await waitFor(
      'teamrun start to print the run',
      () => (existsSync(out) && readFileSync(out, 'utf8').includes('}') ? readFileSync(out, 'utf8') : null),
      60_000,
    );
    const { workflowId, startedBy } = JSON.parse(started) as { workflowId: string; startedBy: unknown };
    expect(startedBy).toEqual({ run: outer.workflowId, task: 'lead', fencingToken: 1 });
    const inner = teamRunHandle(await testClient(), workflowId);
    onTestFinished(async () => {
      await inner.terminate('test finished').catch(() => undefined);
    });
    await waitFor('the started run to claim', async () => (await inner.activeClaims()).length === 1, 60_000);
    await outer.interrupt({ key: 'lead', reason: 'stop' });
    const { status, abort } = await endOf(inner);
    expect(status).toBe('aborted');
    expect(abort).toMatchObject({
      code: 'TEAM_COORDINATOR_ENDED',
      reason: `the coordinator task "lead" (fencing token 1) of run ${outer.workflowId} was interrupted: stop`,
    });
  });

  it('an attempt starts at most worker.maxRunsPerAttempt runs: the one past it is refused, and the model sees why', async ({
    onTestFinished,
  }) => {
    const { taskQueue } = await coordinatorWorker(onTestFinished, { maxRunsPerAttempt: 1 });
    const outer = await startRun(coordinatorPlan([longTeam('one', false), longTeam('two', false)]), taskQueue);
    onTestFinished(async () => {
      await outer.terminate('test finished').catch(() => undefined);
    });
    const result = await outer.result();
    const output = result.tasks.find((t) => t.key === 'coordinate')?.output as { error?: string } | undefined;
    expect(output?.error).toMatch(/^error: TEAM_ATTEMPT_TOO_MANY_RUNS: startRun: this attempt has started 1 runs/);
    // The one it did start ended with the coordinator (its output set, its attempt succeeded).
    const [link] = await eventsOf(outer, 'task:run-linked');
    const first = teamRunHandle(await testClient(), String(link.runId));
    onTestFinished(async () => {
      await first.terminate('test finished').catch(() => undefined);
    });
    expect(await endOf(first)).toMatchObject({
      status: 'aborted',
      abort: { reason: `the coordinator task "coordinate" (fencing token 1) of run ${outer.workflowId} succeeded` },
    });
  });
});
