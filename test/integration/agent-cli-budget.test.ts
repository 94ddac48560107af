import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/config/config';
import * as msg from '../../src/workflows/messages';
import { spawnWorkerProcess, startRun, testConfig, uniqueQueue, waitFor } from '../helpers/env';
import { workerForTest } from '../helpers/scenario';
import { claimOf, tempDir } from './takeover-helpers';

const claude = path.resolve(__dirname, '../helpers/agent-clis/claude');
/** The plan's model, priced; the stand-in names its model `claude-sonnet-4-5`, which `prices:` does not hold. */
const PRICES = { sonnet: { inputPerMTok: 3, outputPerMTok: 15 } };
/** The stand-in's first turn: 100 input, 20 output, 10 cached tokens, at sonnet's prices (cache at the input rate). */
const FIRST_TURN = { tokens: 130, usd: (100 * 3 + 20 * 15 + 10 * 3) / 1e6 };

function cliConfig(state: string, env: Record<string, string> = {}) {
  const config = testConfig({}, ConfigSchema.parse({ prices: PRICES }).prices);
  config.worker.agentClis = {
    'claude-code': { command: claude, allowArgs: [], env: { STANDIN_STATE_DIR: state, ...env }, keepWorktrees: false },
  };
  return config;
}

const started = (state: string) => readdirSync(state).filter((f) => f.startsWith('started-')).length;

describe('agent-cli under maxUsd', () => {
  it("an interrupted attempt's reported tokens are priced from prices: by the plan's model, though the CLI never gave its cost", async ({
    onTestFinished,
  }) => {
    const state = tempDir('agent-cli-priced');
    const worker = await workerForTest({ config: cliConfig(state) }, onTestFinished);
    const handle = await startRun(
      {
        name: 'agent-cli-priced',
        lease: { ttlMs: 15_000, heartbeatEveryMs: 2_500 },
        awaitAdjudication: false,
        budget: { maxUsd: 1 },
        tasks: [{ key: 'code', executor: { kind: 'agent-cli', cli: 'claude-code', model: 'sonnet', prompt: 'hang' } }],
      },
      worker.taskQueue,
    );
    const claim = await claimOf(handle, 'code');
    const { events } = await waitFor('its first turn', async () => {
      const page = await handle.events({ limit: 1_000 });
      return page.events.some((e) => e.type === 'agent:turn') ? page : null;
    });
    expect(events.filter((e) => e.type === 'agent:turn')).toHaveLength(1);
    await handle.executeUpdate(msg.interruptTaskUpdate, {
      args: [{ key: 'code', fencingToken: claim.fencingToken, requestId: 'stop-1', actor: 'alice' }],
    });
    const result = await handle.result();
    expect(result.adjudications).toMatchObject([{ key: 'code', code: 'TEAM_TASK_HUMAN_INTERRUPTED' }]);
    // Before: charged $0 (Claude Code's cost comes only with its final result, which never came).
    expect(result.budget.used.tokens).toBe(FIRST_TURN.tokens);
    expect(result.budget.used.usd).toBeCloseTo(FIRST_TURN.usd, 9);
    expect(result.tasks[0].usage).toMatchObject({ inputTokens: 100, outputTokens: 20, cacheTokens: 10 });
    expect(result.tasks[0].usage.costUsd).toBeCloseTo(FIRST_TURN.usd, 9);
  });

  it('a plan model with no price fails at once, before the CLI starts, naming the prices: key', async ({
    onTestFinished,
  }) => {
    const state = tempDir('agent-cli-unpriced');
    const worker = await workerForTest({ config: cliConfig(state) }, onTestFinished);
    const handle = await startRun(
      {
        name: 'agent-cli-unpriced',
        retry: { maxAttempts: 3, backoffMs: 0 },
        budget: { maxUsd: 1 },
        tasks: [{ key: 'code', executor: { kind: 'agent-cli', cli: 'claude-code', model: 'opus-x', prompt: 'go' } }],
      },
      worker.taskQueue,
    );
    const result = await handle.result();
    expect(result.tasks[0]).toMatchObject({ status: 'failed', attempts: 1 });
    expect(result.tasks[0].lastError).toContain('model "opus-x" has no price');
    expect(result.tasks[0].lastError).toContain('prices: { "opus-x"');
    expect(started(state)).toBe(0);
  });

  it('a worker killed -9 mid-stream under maxTokens and maxUsd: the lost attempt is charged its grant and extensions, leased again, and the run succeeds', async ({
    onTestFinished,
  }) => {
    const state = tempDir('agent-cli-lost');
    const dir = tempDir('agent-cli-lost-config');
    // The first worker's CLI hangs after its first turn; the second's answers.
    const config = path.join(dir, 'worker.yaml');
    writeFileSync(
      config,
      [
        'worker:',
        '  shutdownGraceMs: 500',
        '  agentClis:',
        `    claude-code: { command: ${JSON.stringify(claude)}, env: { STANDIN_STATE_DIR: ${JSON.stringify(state)}, STANDIN_SCENARIO: hang } }`,
        `prices: ${JSON.stringify(PRICES)}`,
        '',
      ].join('\n'),
    );
    const queue = uniqueQueue('agent-cli-lost');
    const victim = await spawnWorkerProcess({ taskQueue: queue, identity: 'cli-victim', config });
    onTestFinished(() => void victim.child.kill('SIGKILL'));
    const handle = await startRun(
      {
        name: 'agent-cli-lost',
        teammates: 2,
        lease: { ttlMs: 2_000 },
        budget: { maxTokens: 100_000, maxUsd: 1 },
        tasks: [
          {
            key: 'code',
            estimate: { tokens: 5_000, usd: 0.05 },
            executor: { kind: 'agent-cli', cli: 'claude-code', model: 'sonnet', prompt: 'go' },
          },
          { key: 'after', dependsOn: ['code'], executor: { kind: 'noop' } },
        ],
      },
      queue,
    );
    await waitFor('its first turn', async () =>
      (await handle.events({ limit: 1_000 })).events.some((e) => e.type === 'agent:turn'),
    );
    victim.child.kill('SIGKILL');
    await victim.exited;
    await workerForTest({ taskQueue: queue, identity: 'cli-survivor', config: cliConfig(state) }, onTestFinished);
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    expect(result.tasks.map((t) => [t.key, t.status, t.attempts])).toEqual([
      ['code', 'succeeded', 2],
      ['after', 'succeeded', 1],
    ]);
    const { events } = await handle.events({ limit: 1_000 });
    const [expired] = events.filter((e) => e.type === 'lease:expired');
    // Its grant (the estimate) bounds it: the one turn it reported (130 tokens) fit in it, so nothing was extended.
    expect(expired).toMatchObject({ key: 'code', charged: { tokens: 5_000, usd: 0.05 }, usageUnknown: false });
    // The second attempt's two turns (320 tokens) and its cost, besides the lost one's bound.
    expect(result.budget).toMatchObject({ stopped: false, usageUnknown: false, used: { tokens: 5_320 } });
    expect(result.adjudications).toEqual([]);
  });
});
