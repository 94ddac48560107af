import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'vitest';
import { agentCliExecutor } from '../../src/activities/executors/agent-cli';
import type { AttemptStepEvent, ExecutorContext, LiveBudget } from '../../src/activities/executors/types';
import { Redactor } from '../../src/activities/redact';
import type { Usage } from '../../src/plan/schema';
import { testConfig } from '../helpers/env';
import { tempDir } from './takeover-helpers';

/**
 * The executor's side of the run's seams, on real stand-in processes: what it hands `emit` and
 * `budget.report` as the stream comes, and what it does when the budget refuses. (The run's side,
 * events recorded and TEAM_TASK_BUDGET_EXCEEDED settled, is in agent-cli.test.ts.)
 */
function attempt(cli: 'claude-code' | 'codex', budgetTokens: number) {
  const state = tempDir('agent-cli-seams');
  const config = testConfig({
    agentClis: {
      [cli]: {
        command: path.resolve(__dirname, '../helpers/agent-clis', cli === 'codex' ? 'codex' : 'claude'),
        allowArgs: [],
        env: { STANDIN_STATE_DIR: state },
        keepWorktrees: false,
      },
    },
  });
  const events: AttemptStepEvent[] = [];
  const reports: Usage[] = [];
  let used = 0;
  const budget: LiveBudget = {
    granted: { tokens: budgetTokens, usd: 0 },
    used: { tokens: 0, usd: 0 },
    reserve: () => Promise.resolve(true),
    report(usage) {
      reports.push(usage);
      used += (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0) + (usage.cacheTokens ?? 0);
      return Promise.resolve(used <= budgetTokens);
    },
  };
  const ctx: ExecutorContext = {
    signal: new AbortController().signal,
    workflowId: 'wf-seams',
    taskKey: `code-${cli}-${budgetTokens}`,
    attempt: 1,
    fencingToken: 1,
    leaseId: `lease-${Date.now()}`,
    holder: 'teammate-1',
    dependencyOutputs: {},
    inbox: [{ id: 1, from: 'review', to: 'code', subject: 'hint', body: 'look at a.txt', at: 0 }] as never,
    progress: () => undefined,
    config,
    env: process.env,
    redactor: new Redactor([]),
    budget,
    emit: (event) => events.push(event),
  };
  return { ctx, events, reports, state };
}

describe.concurrent('agent-cli: the stream, as the run is told it', () => {
  it('each turn is reported to the budget and emitted as it ends, each tool call when it ends', async ({ expect }) => {
    const { ctx, events, reports } = attempt('claude-code', 1_000_000);
    const result = await agentCliExecutor({ kind: 'agent-cli', cli: 'claude-code', prompt: 'go' }, ctx);
    expect(result.output).toMatchObject({ content: 'Done: a.txt is there.' });
    expect(events).toEqual([
      { type: 'agent:turn', turn: 1, inputTokens: 100, outputTokens: 20, tools: ['Bash'] },
      { type: 'agent:tool', turn: 1, tool: 'Bash', ms: expect.any(Number) as number, ok: true },
      { type: 'agent:turn', turn: 2, inputTokens: 150, outputTokens: 30, tools: [] },
    ]);
    // No price for the model: tokens live at $0, the CLI's total_cost_usd with its result.
    expect(reports).toEqual([
      { inputTokens: 100, outputTokens: 20, cacheTokens: 10, model: 'claude-sonnet-4-5', costUsd: 0 },
      { inputTokens: 150, outputTokens: 30, cacheTokens: 10, model: 'claude-sonnet-4-5', costUsd: 0 },
      { model: 'claude-code (reported cost)', costUsd: 0.0042 },
    ]);
  });

  it('a refused report stops the CLI before it ends: TEAM_TASK_BUDGET_EXCEEDED with what was used', async ({
    expect,
  }) => {
    const { ctx, reports, state } = attempt('codex', 20_000);
    const started = Date.now();
    const failure = await agentCliExecutor({ kind: 'agent-cli', cli: 'codex', prompt: 'spend' }, ctx).then(
      () => undefined,
      (err: unknown) => err as { type: string; message: string; output: unknown; usage: Usage[] },
    );
    expect(failure).toMatchObject({ type: 'TEAM_TASK_BUDGET_EXCEEDED', output: { sessionId: expect.any(String) } });
    expect(failure!.message).toContain('codex stopped at turn 3: the run refused more budget');
    expect(reports).toHaveLength(3);
    // 20 turns 300 ms apart would take 6 s; it was stopped at the third.
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(readdirSync(state).filter((f) => f.startsWith('finished-'))).toEqual([]);
  });

  it('the inbox is added to the prompt', async ({ expect }) => {
    const { ctx, state } = attempt('claude-code', 1_000_000);
    await agentCliExecutor({ kind: 'agent-cli', cli: 'claude-code', prompt: 'go' }, ctx);
    const started = readdirSync(state).find((f) => f.startsWith('started-'))!;
    const { prompt } = JSON.parse(readFileSync(path.join(state, started), 'utf8')) as { prompt: string };
    expect(prompt).toContain('- from review, "hint": look at a.txt');
  });
});
