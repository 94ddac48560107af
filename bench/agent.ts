import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { temporal } from '@temporalio/proto';
import type { Client } from '@temporalio/client';
import { journalId } from '../src/agent/types';
import { WORKFLOW_TYPE } from '../src/workflows/messages';
import type { TeamPlanInput } from '../src/plan/schema';
import { startOpenAiServer } from '../test/helpers/openai-server';
import { cpuMs, spawnWorker, type BenchEnv } from './env';
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
  teamRun: AgentSide & { runEventsPerStep: number; journalEventsPerStep: number };
  bare: AgentSide;
  /** teamrun's ms per step over bare's: its per-step overhead as a ratio. */
  ratio: number;
  /** teamrun over bare per step, each the ratio of the medians: wall, worker CPU, history events and bytes. */
  ratios: { wall: number; workerCpu: number; events: number; bytes: number };
  /** The wall ratio of each round (interleaved: teamrun then bare). */
  roundRatios: number[];
  /** Events per step by type, of the last round: where the history goes (teamrun: run and journals). */
  profile: { run: Record<string, number>; journals: Record<string, number>; bare: Record<string, number> };
}

export interface AgentSide {
  msPerStep: number;
  /** The worker process's CPU (user + system) per step. */
  cpuMsPerStep: number;
  /** History events per step (teamrun: the run's and the journals'). */
  eventsPerStep: number;
  /** History bytes per step (each event encoded). */
  bytesPerStep: number;
}

interface Sample {
  ms: number;
  cpuMs: number;
  events: number;
  bytes: number;
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
  // BENCH_AGENT_NODE_OPTIONS: the worker's NODE_OPTIONS (e.g. an --import that profiles it: where its CPU goes).
  const nodeOptions = process.env.BENCH_AGENT_NODE_OPTIONS;
  const worker = await spawnWorker(env, taskQueue, 'bench-agent-worker', config, {
    BENCH_AGENT_KEY: KEY,
    ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}),
  });
  const steps = settings.agents * (2 * settings.turns - 1);
  const team: Sample[] = [];
  const bare: Sample[] = [];
  let events = { run: 0, journals: 0 };
  let profile: AgentBenchResult['profile'] = { run: {}, journals: {}, bare: {} };
  // The worker's CPU over a round: both sides run on this one worker process, one after the other.
  const measured = async <T>(round: () => Promise<T>) => {
    const cpu = cpuMs(worker.pid);
    const value = await round();
    return { value, cpuMs: cpuMs(worker.pid) - cpu };
  };
  try {
    for (let round = 0; round < settings.rounds; round++) {
      // The requests the server keeps grow with every transcript: a round's are dropped after it.
      server.requests.length = 0;
      const t = await measured(() => teamRunRound(env, taskQueue, settings, round));
      const b = await measured(() => bareRound(env, taskQueue, server.baseUrl, settings, round));
      if (b.value.steps !== steps) throw new Error(`the bare loop made ${b.value.steps} steps, not ${steps}`);
      const tv = t.value;
      team.push({
        ms: tv.ms,
        cpuMs: t.cpuMs,
        events: tv.run.events + tv.journals.events,
        bytes: tv.run.bytes + tv.journals.bytes,
      });
      bare.push({ ms: b.value.ms, cpuMs: b.cpuMs, events: b.value.history.events, bytes: b.value.history.bytes });
      events = { run: tv.run.events, journals: tv.journals.events };
      profile = { run: tv.run.byType, journals: tv.journals.byType, bare: b.value.history.byType };
      const [ts, bs] = [team.at(-1)!, bare.at(-1)!];
      log(
        `  round ${round + 1}: teamRun ${(ts.ms / steps).toFixed(1)} ms/step, ${(ts.cpuMs / steps).toFixed(2)} ms CPU, ` +
          `${(ts.events / steps).toFixed(2)} events, ${(ts.bytes / steps).toFixed(0)} B; ` +
          `bare ${(bs.ms / steps).toFixed(1)} ms/step, ${(bs.cpuMs / steps).toFixed(2)} ms CPU, ` +
          `${(bs.events / steps).toFixed(2)} events, ${(bs.bytes / steps).toFixed(0)} B`,
      );
    }
  } finally {
    await worker.stop();
    await server.close();
  }
  const side = (list: Sample[]): AgentSide => ({
    msPerStep: median(list.map((s) => s.ms)) / steps,
    cpuMsPerStep: median(list.map((s) => s.cpuMs)) / steps,
    eventsPerStep: median(list.map((s) => s.events)) / steps,
    bytesPerStep: median(list.map((s) => s.bytes)) / steps,
  });
  const [t, b] = [side(team), side(bare)];
  const perStep = (counts: Record<string, number>) =>
    Object.fromEntries(Object.entries(counts).map(([type, n]) => [type, Number((n / steps).toFixed(2))]));
  return {
    settings,
    steps,
    teamRun: { ...t, runEventsPerStep: events.run / steps, journalEventsPerStep: events.journals / steps },
    bare: b,
    ratio: t.msPerStep / b.msPerStep,
    ratios: {
      wall: t.msPerStep / b.msPerStep,
      workerCpu: t.cpuMsPerStep / b.cpuMsPerStep,
      events: t.eventsPerStep / b.eventsPerStep,
      bytes: t.bytesPerStep / b.bytesPerStep,
    },
    roundRatios: team.map((s, i) => s.ms / bare[i].ms),
    profile: { run: perStep(profile.run), journals: perStep(profile.journals), bare: perStep(profile.bare) },
  };
}

interface HistoryCount {
  events: number;
  bytes: number;
  byType: Record<string, number>;
}

/** Events, their encoded bytes and their count by type, over every run of a workflow id (continue-as-new included). */
async function historyCount(client: Client, workflowId: string): Promise<HistoryCount> {
  const latest = await client.workflow.getHandle(workflowId).fetchHistory();
  const first = latest.events?.[0]?.workflowExecutionStartedEventAttributes?.firstExecutionRunId;
  if (!first) throw new Error(`no history for ${workflowId}`);
  const count: HistoryCount = { events: 0, bytes: 0, byType: {} };
  let runId: string | null | undefined = first;
  while (runId) {
    const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    for (const event of history.events ?? []) {
      const type = (temporal.api.enums.v1.EventType[event.eventType as number] ?? String(event.eventType)).replace(
        /^EVENT_TYPE_/,
        '',
      );
      count.events += 1;
      count.bytes += temporal.api.history.v1.HistoryEvent.encode(event).finish().length;
      count.byType[type] = (count.byType[type] ?? 0) + 1;
    }
    runId = history.events?.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId;
  }
  return count;
}

function sum(counts: HistoryCount[]): HistoryCount {
  const total: HistoryCount = { events: 0, bytes: 0, byType: {} };
  for (const c of counts) {
    total.events += c.events;
    total.bytes += c.bytes;
    for (const [type, n] of Object.entries(c.byType)) total.byType[type] = (total.byType[type] ?? 0) + n;
  }
  return total;
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
  const journals = await Promise.all(plan.tasks.map((t) => historyCount(env.client, journalId(workflowId, t.key))));
  return { ms, run: await historyCount(env.client, workflowId), journals: sum(journals) };
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
  return { ms, steps, history: await historyCount(env.client, workflowId) };
}
