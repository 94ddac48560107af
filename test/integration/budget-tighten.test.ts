import { describe, expect, it } from 'vitest';
import { teamrun } from '../cli/teamrun-cli';
import { startRun, waitFor } from '../helpers/env';
import { updateCodeOf, workerForSuite } from '../helpers/scenario';

/** A shell step that reports `tokens` of usage, as an LLM-calling step would. */
const spends = (tokens: number) => ({ kind: 'shell', command: `echo '::teamrun-usage::{"inputTokens":${tokens}}'` });

describe("tightenBudget lowers a running run's limits, never raises them (shared dev server)", () => {
  const worker = workerForSuite();

  const run = () =>
    startRun(
      {
        name: 'tighten',
        teammates: 1,
        lease: { ttlMs: 15_000, heartbeatEveryMs: 1_000 },
        budget: { maxTokens: 10_000 },
        tasks: [
          { key: 'spend', estimate: { tokens: 4_000 }, executor: spends(3_000) },
          { key: 'slow', dependsOn: ['spend'], estimate: { tokens: 1_000 }, executor: { kind: 'sleep', ms: 15_000 } },
          { key: 'after', dependsOn: ['slow'], estimate: { tokens: 1_000 }, executor: { kind: 'noop' } },
        ],
      },
      worker.taskQueue,
    );
  const started = async (handle: Awaited<ReturnType<typeof run>>, key: string) =>
    waitFor(`${key} to run`, async () => (await handle.activeClaims()).some((c) => c.key === key));

  it('stops the run at once with the budget reason when the new limit is below what is used', async () => {
    const handle = await run();
    await started(handle, 'slow');
    const cli = await teamrun(['budget', 'tighten', handle.workflowId, '--max-tokens', '2000', '--actor', 'ops']);
    expect(cli.stdout).toContain('the run stopped (max-tokens)');
    // At once: the budget says so before the attempt in flight settles, and nothing after it starts.
    expect(await handle.budget()).toMatchObject({ stopped: true, reason: 'max-tokens', limits: { maxTokens: 2_000 } });
    expect((await handle.activeClaims()).map((c) => c.key)).toEqual(['slow']);
    const result = await handle.result();
    expect(result.budget).toMatchObject({ stopped: true, reason: 'max-tokens' });
    expect(result.tasks.find((t) => t.key === 'after')?.status).toBe('skipped');
    const event = (await handle.events()).events.find((e) => e.type === 'budget:tightened');
    expect(event).toMatchObject({ actor: 'ops', limits: { maxTokens: 2_000 } });
  });

  it('refuses a loosening with loosening_refused and leaves the limits as they were', async () => {
    const handle = await run();
    await started(handle, 'slow');
    expect(await updateCodeOf(handle.tightenBudget({ maxTokens: 50_000 }))).toBe('loosening_refused');
    const cli = await teamrun(['budget', 'tighten', handle.workflowId, '--max-tokens', '20000']);
    expect(cli.code).not.toBe(0);
    expect(cli.stderr).toContain('maxTokens 10000 -> 20000');
    expect((await handle.budget()).limits.maxTokens).toBe(10_000);
    expect((await handle.result()).status).toBe('succeeded');
  });
});
