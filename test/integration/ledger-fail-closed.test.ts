import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLedger, ledgerStatus } from '../../src/ledger/client';
import type { TeamPlanInput } from '../../src/plan/schema';
import type { TeamRunHandle } from '../../src/client';
import { teamrun } from '../cli/teamrun-cli';
import { startOpenAiServer, type OpenAiServer } from '../helpers/openai-server';
import {
  spawnWorkerProcess,
  startRun,
  startTestWorker,
  testClient,
  testConfig,
  uniqueQueue,
  waitFor,
  type WorkerProcess,
} from '../helpers/env';

const KEY_ENV = 'TEAMRUN_TEST_LLM_KEY';
const TTL_MS = 2_000;

const plan = (name: string, ledger: string, tasks: TeamPlanInput['tasks'], extra: Partial<TeamPlanInput> = {}) => ({
  name,
  lease: { ttlMs: TTL_MS },
  budget: { ledger },
  tasks,
  ...extra,
});

/**
 * Two runs on one ledger with a dollar limit, on real workers: what one run cannot count (a model without a price,
 * an attempt whose worker died) stops or holds the other run's attempts too.
 */
describe('a shared ledger fails closed for every run on it (shared dev server)', () => {
  let server: OpenAiServer;
  const cleanup: Array<() => Promise<unknown>> = [];
  beforeAll(async () => {
    server = await startOpenAiServer();
    server.model('mystery-model', { usage: { promptTokens: 900, completionTokens: 100 } });
  });
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step().catch(() => undefined);
  });
  afterAll(async () => {
    await server?.close();
  });

  const worker = async (taskQueue?: string) => {
    const started = await startTestWorker({
      taskQueue,
      config: testConfig({ llm: { baseUrl: server.baseUrl, apiKeyEnv: KEY_ENV } }, {}),
      env: { [KEY_ENV]: 'sk-test' },
    });
    cleanup.push(() => started.stop());
    return started;
  };
  const workerProcess = async (taskQueue: string, identity: string, script?: string): Promise<WorkerProcess> => {
    const spawned = await spawnWorkerProcess({ taskQueue, identity, script });
    cleanup.push(async () => {
      spawned.child.kill('SIGKILL');
      await spawned.exited;
    });
    return spawned;
  };
  const terminateLater = (handle: TeamRunHandle) =>
    cleanup.push(() => handle.terminate('test cleanup').catch((err: unknown) => err));

  it("stops admission in run B once run A charges a model that has no price while the ledger's maxUsd is set", async () => {
    const client = await testClient();
    const { taskQueue } = await worker();
    const ledger = uniqueQueue('unpriced');
    await createLedger(client, ledger, { maxUsd: 5 }, { taskQueue });

    // A's own budget has no dollar limit: only the ledger can tell that nobody knows what this call cost.
    const a = await startRun(
      plan('unpriced-a', ledger, [{ key: 'chat', executor: { kind: 'llm', model: 'mystery-model', prompt: 'hi' } }]),
      taskQueue,
    );
    expect((await a.result()).status).toBe('succeeded');
    expect(await ledgerStatus(client, ledger)).toMatchObject({
      state: 'exhausted',
      exhausted: { reason: 'unpriced-usage' },
      used: { tokens: 1_000, usd: 0 },
    });

    const b = await startRun(plan('priced-b', ledger, [{ key: 'work', executor: { kind: 'noop' } }]), taskQueue);
    const result = await b.result();
    expect(result.budget).toMatchObject({ stopped: true, reason: 'unpriced-usage' });
    expect(result.tasks.find((t) => t.key === 'work')?.status).toBe('skipped');
    expect((await ledgerStatus(client, ledger)).counters.acquired).toBe(1);
  });

  // In blocks too (src/ledger/blocks.ts): the lost attempt is settled as lost at once, though its block lives on. With
  // a workflow id of 1,000 characters (Temporal's most) the lost attempt's ids still fit the ledger's: it settles
  // under its own lease id, not under its block's id and its lease id together (over 2,000 characters, refused).
  it.each([
    { blocks: false, longId: false },
    { blocks: true, longId: false },
    { blocks: true, longId: true },
  ])(
    "holds run B's next attempt after run A's worker is killed mid-attempt, until an operator resolves the ledger " +
      '(blocks: $blocks, 1,000-character id: $longId)',
    async ({ blocks, longId }) => {
      const client = await testClient();
      const { taskQueue: ledgerQueue } = await worker();
      const ledger = uniqueQueue('lost');
      await createLedger(client, ledger, { maxUsd: 5, maxTokens: 100_000 }, { taskQueue: ledgerQueue });

      // Run A lives on a worker process of its own queue, so kill -9 takes its attempt down with it.
      const aQueue = uniqueQueue('lost-a');
      // Of a custom kind: nothing bounds what a lost attempt of it spent (a built-in kind's bound would be charged).
      const doomed = await workerProcess(aQueue, 'doomed', path.join(__dirname, '../helpers/custom-kind-worker.ts'));
      const a = await startRun(
        plan(
          'lost-a',
          ledger,
          [
            {
              key: 'long',
              estimate: { tokens: 2_000, usd: 0.5 },
              onLeaseLost: 'adjudicate',
              executor: { kind: 'spender', ms: 60_000 },
            },
          ],
          { awaitAdjudication: false, ...(blocks ? { budget: { ledger, ledgerBlocks: true } } : {}) },
        ),
        aQueue,
        longId ? uniqueQueue('lost-a').padEnd(1_000, '-long') : undefined,
      );
      terminateLater(a);
      // Its attempt runs on the doomed worker: it renewed its slot (the lease moved past its first expiry).
      await waitFor('A to hold and renew a slot', async () => {
        const [slot] = (await ledgerStatus(client, ledger)).slots;
        return slot !== undefined && slot.expiresAt > slot.acquiredAt + slot.leaseMs;
      });
      doomed.child.kill('SIGKILL');
      await doomed.exited;
      // A's workflow needs a worker to see its attempt's lease expire.
      await workerProcess(aQueue, 'second');
      await waitFor(
        'the ledger to require recovery',
        async () => (await ledgerStatus(client, ledger)).state === 'recovery_required',
        30_000,
      );
      expect((await ledgerStatus(client, ledger)).recovery).toMatchObject({
        count: 1,
        runs: [a.workflowId],
        reservation: { tokens: 2_000, usd: 0.5 },
      });

      const b = await startRun(plan('waits-b', ledger, [{ key: 'next', executor: { kind: 'noop' } }]), ledgerQueue);
      terminateLater(b);
      await waitFor('B to say why it waits', async () =>
        (await b.events()).events.some((e) => e.type === 'ledger:waiting'),
      );
      // Still waiting a few seconds later: nothing ran.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect((await b.tasks()).find((t) => t.key === 'next')?.status).not.toBe('succeeded');
      const shown = await teamrun(['ledger', 'status', ledger]);
      expect(shown.stdout).toContain('RECOVERY REQUIRED');
      const run = await teamrun(['status', b.workflowId]);
      expect(run.stdout).toContain(`waiting  ledger ${ledger} requires recovery: 1 lost attempt(s)`);

      const resolved = await teamrun([
        'ledger',
        'resolve',
        ledger,
        '--usage',
        '{"inputTokens":1500,"costUsd":0.25}',
        '--actor',
        'ops-alice',
      ]);
      expect(resolved.stdout + resolved.stderr).toContain('1 lost attempt(s) resolved by ops-alice');
      expect((await b.result()).status).toBe('succeeded');
      const events = (await b.events()).events.map((e) => e.type);
      expect(events.indexOf('ledger:admitted')).toBeGreaterThan(events.indexOf('ledger:waiting'));
      expect(await ledgerStatus(client, ledger)).toMatchObject({
        state: 'open',
        used: { tokens: 1_500, usd: 0.25 },
        lastResolution: { actor: 'ops-alice', how: 'usage', count: 1 },
      });
    },
  );

  it('refuses to loosen a ledger through ledger create unless forced, and records who forced it', async () => {
    const { taskQueue } = await worker();
    const ledger = uniqueQueue('loosen');
    await createLedger(await testClient(), ledger, { maxUsd: 5, maxConcurrent: 2 }, { taskQueue });
    const env = { TEAMRUN_TASK_QUEUE: taskQueue };

    const tighter = await teamrun(['ledger', 'create', ledger, '--max-usd', '3', '--max-concurrent', '2'], env);
    expect(tighter.code).toBe(0);
    const looser = await teamrun(['ledger', 'create', ledger, '--max-usd', '10', '--max-concurrent', '2'], env);
    expect(looser.code).not.toBe(0);
    expect(looser.stderr).toContain('loosening_refused');
    expect(looser.stderr).toContain('maxUsd 3 -> 10');
    const forced = await teamrun(
      ['ledger', 'create', ledger, '--max-usd', '10', '--force', '--actor', 'ops-bob', '--json'],
      env,
    );
    expect(forced.code).toBe(0);
    const status = await ledgerStatus(await testClient(), ledger);
    expect(status.limits).toEqual({ maxUsd: 10 });
    expect(status.recentEvents.filter((e) => e.type === 'ledger:configured').at(-1)).toMatchObject({
      forcedBy: 'ops-bob',
      loosened: ['maxConcurrent 2 -> none', 'maxUsd 3 -> 10'],
    });
  });
});
