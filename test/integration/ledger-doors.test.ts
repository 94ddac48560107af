import { randomUUID } from 'node:crypto';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { Client } from '@temporalio/client';
import { createLedger, ledgerStatus } from '../../src/ledger/client';
import { updateLedger } from '../../src/ledger/handle';
import * as lm from '../../src/ledger/messages';
import { ledgerWorkflowId } from '../../src/plan/requests/ledger';
import { startRun, temporalAddress, temporalBinary, testClient, uniqueQueue, waitFor } from '../helpers/env';
import { ledgerForTest, updateCodeOf, workerForSuite } from '../helpers/scenario';

/**
 * The doors of a shared ledger, attacked as issue 39 found them open: anyone with update rights on the namespace
 * (not one of the ledger's operators, no worker's proof) sends the updates only a run's worker should, a task settles
 * its own slot through the Temporal address it can reach, a workflow of another type takes a ledger's id first.
 */
describe("a ledger's doors (shared dev server)", () => {
  const worker = workerForSuite();

  /** Each update a run's worker sends, as someone else would forge it: no proof, or a made-up one. */
  function forgeries(id: string, extra: Record<string, unknown>) {
    const attemptId = `${id}-run/task/1`;
    const reservation = { tokens: 900, usd: 0 };
    return {
      settle: (c: Client) =>
        updateLedger(c, id, lm.ledgerSettleUpdate, { attemptId, usage: { outputTokens: 1e9 }, ...extra }),
      acquire: (c: Client) =>
        updateLedger(c, id, lm.ledgerAcquireUpdate, {
          attemptId,
          workflowId: `${id}-run`,
          reservation,
          leaseMs: 60_000,
          ...extra,
        }),
      extend: (c: Client) =>
        updateLedger(c, id, lm.ledgerExtendUpdate, { attemptId, extensionId: 'x1', extension: reservation, ...extra }),
      register: (c: Client) => updateLedger(c, id, lm.ledgerRegisterUpdate, { workflowId: `${id}-other`, ...extra }),
      unregister: (c: Client) => updateLedger(c, id, lm.ledgerUnregisterUpdate, { workflowId: `${id}-run`, ...extra }),
      renewSlots: (c: Client) => updateLedger(c, id, lm.ledgerRenewSlotsUpdate, { attemptIds: [attemptId], ...extra }),
    };
  }

  it('refuses a forged settle, acquire, extend, register, unregister and renewSlots from a non-operator, recording nothing', async () => {
    const client = await testClient();
    const id = await ledgerForTest('doors', { maxTokens: 1_000, maxConcurrent: 2 }, worker.taskQueue, onTestFinished, {
      actor: 'ops-alice',
      operators: ['ops-alice'],
    });
    // An operator's repair by hand: a registered run and a slot held, so unregister and extend have a target.
    const asOperator = forgeries(id, { actor: 'ops-alice' });
    const register = { workflowId: `${id}-run`, actor: 'ops-alice' };
    await updateLedger(client, id, lm.ledgerRegisterUpdate, register);
    expect((await asOperator.acquire(client)) as unknown).toMatchObject({ ok: true });
    const before = await ledgerStatus(client, id);
    expect(before).toMatchObject({ inFlight: 1, reserved: { tokens: 900 }, runs: [{ workflowId: `${id}-run` }] });

    const refused: Record<string, string | undefined> = {};
    for (const extra of [{}, { actor: 'mallory' }]) {
      for (const [name, send] of Object.entries(forgeries(id, extra))) {
        refused[`${name} ${JSON.stringify(extra)}`] = await updateCodeOf(send(client));
      }
    }
    console.log(`[ledger-doors] forged updates: ${JSON.stringify(refused)}`);
    expect(Object.values(refused)).toEqual(new Array(12).fill(lm.FORBIDDEN));
    // A lease a timer cannot hold is refused whoever asks.
    const endless = {
      attemptId: `${id}-run/task/2`,
      workflowId: `${id}-run`,
      reservation: { tokens: 1, usd: 0 },
      leaseMs: Number.MAX_SAFE_INTEGER,
      actor: 'ops-alice',
    };
    const forever = updateLedger(client, id, lm.ledgerAcquireUpdate, endless);
    expect(await updateCodeOf(forever)).toBe('invalid_ledger_request');
    // Refused in the validators: not a trace in the ledger, its books or its events.
    expect(books(await ledgerStatus(client, id))).toEqual(books(before));
  });

  it('takes none of them without a proof on a ledger without operators either', async () => {
    const client = await testClient();
    const id = await ledgerForTest('doors-open', { maxTokens: 1_000 }, worker.taskQueue, onTestFinished);
    const before = await ledgerStatus(client, id);
    for (const send of Object.values(forgeries(id, {}))) expect(await updateCodeOf(send(client))).toBe(lm.FORBIDDEN);
    expect(books(await ledgerStatus(client, id))).toEqual(books(before));
  });

  it("a renew signal keeps no slot alive; a run's worker keeps its running attempt's slot with proven renewals", async () => {
    const client = await testClient();
    const id = await ledgerForTest('renew', { maxConcurrent: 2 }, worker.taskQueue, onTestFinished, {
      actor: 'ops-alice',
      operators: ['ops-alice'],
    });
    // An operator's slot of 2 s that nobody renews, and someone signalling renew for it every 200 ms.
    const held = { attemptId: `${id}-gone/task/1`, workflowId: `${id}-gone`, reservation: { tokens: 0, usd: 0 } };
    const byOperator: Record<string, unknown> = { ...held, leaseMs: 2_000, actor: 'ops-alice' };
    await updateLedger(client, id, lm.ledgerAcquireUpdate, byOperator as unknown as typeof held & { leaseMs: number });
    const handle = client.workflow.getHandle(ledgerWorkflowId(id));
    let forged = 0;
    const forging = setInterval(() => {
      forged += 1;
      void handle.signal(lm.ledgerRenewSignal, { attemptId: held.attemptId }).catch(() => undefined);
    }, 200);
    try {
      await waitFor(
        'the unrenewed slot to expire',
        async () => (await ledgerStatus(client, id)).inFlight === 0,
        30_000,
      );
    } finally {
      clearInterval(forging);
    }
    console.log(`[ledger-doors] ${forged} forged renew signals; the slot expired at its lease all the same`);
    expect((await ledgerStatus(client, id)).counters.expired).toBe(1);

    // A run's attempt of 10 s with a slot lease of 4 s (twice its 2 s TTL): its worker's renewals keep it.
    const run = await startRun(
      {
        name: 'renewed',
        lease: { ttlMs: 2_000 },
        budget: { ledger: id },
        tasks: [{ key: 'long', executor: { kind: 'sleep', ms: 10_000 } }],
      },
      worker.taskQueue,
    );
    const [slot] = await waitFor('the attempt to hold its slot', async () => {
      const { slots } = await ledgerStatus(client, id);
      return slots.length ? slots : null;
    });
    // Held past the lease it was acquired with: only its worker's renewals can have kept it.
    await waitFor(
      'the slot renewed past its first lease',
      async () => {
        const held = (await ledgerStatus(client, id)).slots.find((s) => s.attemptId === slot.attemptId);
        return held && Date.now() > slot.acquiredAt + slot.leaseMs + 1_000 && held.expiresAt > Date.now();
      },
      30_000,
    );
    expect(await ledgerStatus(client, id)).toMatchObject({ inFlight: 1, counters: { expired: 1 } });
    expect(await run.result()).toMatchObject({ status: 'succeeded' });
    expect(await ledgerStatus(client, id)).toMatchObject({ inFlight: 0, counters: { expired: 1, settled: 1 } });
  });

  it("a task cannot settle its own ledger slot: the ledger's used equals the real spend", async () => {
    const client = await testClient();
    const ledger = await ledgerForTest('own-slot', { maxTokens: 10_000 }, worker.taskQueue, onTestFinished);
    // Each task settles its own slot with no usage, straight to the ledger's workflow, then spends 2,000 tokens.
    const settle =
      `"${temporalBinary()}" workflow update execute --address ${temporalAddress()} ` +
      `--workflow-id '${ledgerWorkflowId(ledger)}' --name settle ` +
      `--input "{\\"attemptId\\":\\"$TEAMRUN_LEASE_ID\\",\\"usage\\":null}" 2>&1`;
    const command =
      `if ${settle} | grep -q forbidden; then echo '::teamrun-output::"refused"'; ` +
      `else echo '::teamrun-output::"taken"'; fi; echo '::teamrun-usage::{"outputTokens":2000}'`;
    const handle = await startRun(
      {
        name: 'own-slot',
        teammates: 3,
        // Seen before the fix: each task's settle freed its slot, so the run then refused the attempt's spend.
        awaitAdjudication: false,
        budget: { ledger },
        tasks: [1, 2, 3].map((n) => ({ key: `t${n}`, executor: { kind: 'shell', command } })),
      },
      worker.taskQueue,
    );
    const result = await handle.result();
    const status = await ledgerStatus(client, ledger);
    const outputs = result.tasks.map((t) => t.output);
    console.log(
      `[ledger-doors] the tasks' own settles: ${outputs.join(', ')}; the ledger's used: ${status.used.tokens}`,
    );
    expect(result.budget.used.tokens).toBe(6_000);
    expect(status.used.tokens).toBe(6_000);
    expect(status.counters).toMatchObject({ settled: 3, duplicateSettles: 0 });
    expect(outputs).toEqual(['refused', 'refused', 'refused']);
  });

  it('names a workflow that holds a ledger id, for ledger create and for a run on it, instead of waiting', async () => {
    const client = await testClient();
    const id = uniqueQueue('squatted');
    const squatter = await client.workflow.start('notALedger', {
      workflowId: ledgerWorkflowId(id),
      taskQueue: `nobody-polls-${randomUUID()}`,
      args: [],
    });
    onTestFinished(async () => {
      await squatter.terminate('test cleanup').catch(() => undefined);
    });
    const named = [`workflow ${ledgerWorkflowId(id)} (run ${squatter.firstExecutionRunId})`, 'runs as notALedger'];

    const created = await createLedger(client, id, { maxTokens: 10 }, { taskQueue: worker.taskQueue }).then(
      () => 'created',
      (err: Error & { code?: string }) => `${err.code}: ${err.message}`,
    );
    expect(created).toContain('ledger_squatted');
    for (const part of named) expect(created).toContain(part);

    const run = await startRun(
      { name: 'squatted', budget: { ledger: id }, tasks: [{ key: 'a', executor: { kind: 'shell', command: 'true' } }] },
      worker.taskQueue,
    );
    const failure = await run.result().then(
      () => 'completed',
      (err: Error) => chain(err),
    );
    console.log(`[ledger-doors] the run on a squatted ledger: ${failure}`);
    expect(failure).toContain('TeamLedgerSquatted');
    for (const part of named) expect(failure).toContain(part);
  });
});

/** A ledger's status but the time left on its slots (which moves while nothing changes). */
function books(status: Awaited<ReturnType<typeof ledgerStatus>>) {
  return { ...status, slots: status.slots.map(({ expiresInMs: _left, ...slot }) => slot) };
}

/** An error and its causes, as `type: message` lines. */
function chain(err: unknown): string {
  const lines: string[] = [];
  for (let e = err as (Error & { type?: string; cause?: unknown }) | undefined; e; e = e.cause as typeof e)
    lines.push(`${e.type ?? e.name}: ${e.message}`);
  return lines.join('\n');
}
