import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { journalId } from '../src/agent/types';
import { WORKFLOW_TYPE } from '../src/workflows/messages';
import type { TeamPlanInput } from '../src/plan/schema';
import { startOpenAiServer } from '../test/helpers/openai-server';
import { spawnWorker, type BenchEnv } from './env';
import { chainOf } from './history';
import type { BareAgentInput } from './bare-agent-workflow';
import { median } from './stats';

export interface AgentBenchSettings {
  /** Agents per run, one after another. */
  agents: number;
  /** Model calls per agent: each but the last asks for one tool call. */
  turns: number;
  /** Interleaved rounds of (teamrun, bare); the medians are reported. */
  rounds: number;
}

export interface AgentBenchResult {
  settings: AgentBenchSettings;
  /** Model calls plus tool calls per run. */
  steps: number;
  teamRun: { msPerStep: number; runEventsPerStep: number; journalEventsPerStep: number };
  bare: { msPerStep: number; eventsPerStep: number };
  /** teamrun's ms per step over bare's: its per-step overhead as a ratio. */
  ratio: number;
}

const KEY = 'sk-bench-agent-key';

/**
 * Per-step overhead of teamrun's `agent` kind against a bare Temporal workflow running the same
 * loop (one activity per model call, one per tool call), both on one worker process and one dev
 * server, against the local OpenAI-compatible test server answering at once. Each agent makes
 * `turns` model calls; every call but the last asks for `teamrun__set_output`.
 */
export async function measureAgents(
  env: BenchEnv,
  settings: AgentBenchSettings,
  log: (line: string) => void,
): Promise<AgentBenchResult> {
  const server = await startOpenAiServer();
  const usage = { promptTokens: 100, completionTokens: 10 };
  server.script('bench-agent', (r) =>
    r.turn < settings.turns
      ? { usage, toolCalls: [{ name: 'teamrun__set_output', arguments: { output: `turn ${r.turn}` } }] }
      : { usage, content: 'done' },
  );
  const taskQueue = 'bench-agent';
  const config = path.join(env.dir, 'bench-agent-worker.yaml');
  writeFileSync(
    config,
    `worker:\n  maxConcurrentAttempts: 4\n  shutdownGraceMs: 500\n` +
      `  llm:\n    baseUrl: ${server.baseUrl}\n    apiKeyEnv: BENCH_AGENT_KEY\n`,
  );
  const worker = await spawnWorker(env, taskQueue, 'bench-agent-worker', config, { BENCH_AGENT_KEY: KEY });
  const steps = settings.agents * (2 * settings.turns - 1);
  const team: number[] = [];
  const bare: number[] = [];
  let events = { run: 0, journals: 0, bare: 0 };
  try {
    for (let round = 0; round < settings.rounds; round++) {
      // The requests the server keeps grow with every transcript: a round's are dropped after it.
      server.requests.length = 0;
      const t = await teamRunRound(env, taskQueue, settings, round);
      const b = await bareRound(env, taskQueue, server.baseUrl, settings, round);
      if (b.steps !== steps) throw new Error(`the bare loop made ${b.steps} steps, not ${steps}`);
      team.push(t.ms);
      bare.push(b.ms);
      events = { run: t.runEvents, journals: t.journalEvents, bare: b.events };
      log(
        `  round ${round + 1}: teamRun ${(t.ms / steps).toFixed(1)} ms/step, bare ${(b.ms / steps).toFixed(1)} ms/step`,
      );
    }
  } finally {
    await worker.stop();
    await server.close();
  }
  const teamMs = median(team) / steps;
  const bareMs = median(bare) / steps;
  return {
    settings,
    steps,
    teamRun: {
      msPerStep: teamMs,
      runEventsPerStep: events.run / steps,
      journalEventsPerStep: events.journals / steps,
    },
    bare: { msPerStep: bareMs, eventsPerStep: events.bare / steps },
    ratio: teamMs / bareMs,
  };
}

async function teamRunRound(env: BenchEnv, taskQueue: string, settings: AgentBenchSettings, round: number) {
  const plan: TeamPlanInput = {
    name: `bench-agent-${round}`,
    teammates: 1,
    tasks: Array.from({ length: settings.agents }, (_, i) => ({
      key: `agent-${i}`,
      executor: {
        kind: 'agent',
        model: 'bench-agent',
        prompt: `Agent ${i}: write`,
        tools: ['teamrun__set_output'],
        maxTurns: settings.turns,
      },
    })),
  };
  const workflowId = `bench-agent-team-${round}-${Date.now()}`;
  const started = Date.now();
  const handle = await env.client.workflow.start(WORKFLOW_TYPE, { taskQueue, workflowId, args: [plan] });
  const result = (await handle.result()) as { status: string };
  const ms = Date.now() - started;
  if (result.status !== 'succeeded') throw new Error(`agent bench run ${workflowId}: ${result.status}`);
  // All of a workflow's runs: a journal continues as new past 2,000 events (and a long run too).
  const length = async (id: string) => {
    const latest = await env.client.workflow.getHandle(id).fetchHistory();
    const first = latest.events?.[0]?.workflowExecutionStartedEventAttributes?.firstExecutionRunId;
    if (!first) throw new Error(`no history for ${id}`);
    return (await chainOf(env.client, id, first)).reduce((n, run) => n + run.events, 0);
  };
  const journals = await Promise.all(plan.tasks.map((t) => length(journalId(workflowId, t.key))));
  return { ms, runEvents: await length(workflowId), journalEvents: journals.reduce((a, b) => a + b, 0) };
}

async function bareRound(
  env: BenchEnv,
  taskQueue: string,
  baseUrl: string,
  settings: AgentBenchSettings,
  round: number,
) {
  const input: BareAgentInput = { baseUrl, model: 'bench-agent', agents: settings.agents };
  const workflowId = `bench-agent-bare-${round}-${Date.now()}`;
  const started = Date.now();
  const handle = await env.client.workflow.start('bareAgentRun', { taskQueue, workflowId, args: [input] });
  const { steps } = (await handle.result()) as { steps: number };
  const ms = Date.now() - started;
  const events = (await handle.fetchHistory()).events?.length ?? 0;
  return { ms, steps, events };
}
