import { onTestFinished, describe, expect, it } from 'vitest';
import type { Client } from '@temporalio/client';
import { abortAllLedger, createLedger, ledgerStatus, resolveLedger } from '../../src/ledger/client';
import { ledgerHandle, updateLedger } from '../../src/ledger/handle';
import * as lm from '../../src/ledger/messages';
import { ledgerWorkflowId, type LedgerLimits } from '../../src/plan/requests/ledger';
import { teamrun } from '../cli/teamrun-cli';
import { testClient } from '../helpers/env';
import { currentDetailsOf, ledgerForTest, updateCodeOf, workerForSuite } from '../helpers/scenario';

const OPERATORS = ['ops-alice', 'ops-bob'];

/**
 * Who may loosen, resolve and abort on a shared ledger, against a real ledger workflow: its updates are sent as any
 * caller with update rights would send them, the CLI is the built one.
 */
describe("a ledger's operators (shared dev server)", () => {
  const worker = workerForSuite();

  /** A ledger created by one of OPERATORS, with `operators` when given; the client to call it with. */
  async function ledger(name: string, limits: LedgerLimits, operators?: string[], handOverAt?: number) {
    const id = await ledgerForTest(name, limits, worker.taskQueue, onTestFinished, {
      actor: 'ops-alice',
      ...(operators && { operators }),
      ...(handOverAt !== undefined && { continueAsNewAfterEvents: handOverAt }),
    });
    return { client: await testClient(), id };
  }

  /** What the Web UI shows as the ledger workflow's current details. */
  async function detailsOf(client: Client, id: string): Promise<string> {
    return currentDetailsOf(client.workflow.getHandle(ledgerWorkflowId(id)));
  }

  /**
   * A registered run (a workflow id nobody runs) and a lost attempt: the ledger requires recovery. Sent by hand, as
   * one of its operators may (a run's worker sends them with its proof).
   */
  async function runAndLostAttempt(client: Client, id: string): Promise<void> {
    const workflowId = `${id}-run`;
    const actor = 'ops-alice';
    await updateLedger(client, id, lm.ledgerRegisterUpdate, { workflowId, actor } as { workflowId: string });
    const attemptId = `${workflowId}/task/1`;
    const reservation = { tokens: 100, usd: 0 };
    const acquire = { attemptId, workflowId, reservation, leaseMs: 60_000, actor };
    await updateLedger(client, id, lm.ledgerAcquireUpdate, acquire);
    const lost = { attemptId, usage: null, lost: { reservation, workflowId }, actor };
    await updateLedger(client, id, lm.ledgerSettleUpdate, lost);
    expect((await ledgerStatus(client, id)).state).toBe('recovery_required');
  }

  it('refuses a forced loosening, a resolve and an abort-all from an actor not on the list, changing nothing', async () => {
    const { client, id } = await ledger('operators', { maxTokens: 1_000 }, OPERATORS);
    await runAndLostAttempt(client, id);
    const before = await ledgerStatus(client, id);
    expect(before.operators).toEqual(OPERATORS);
    expect(await detailsOf(client, id)).toContain('operators: ops-alice, ops-bob');

    const loosen = createLedger(client, id, { maxTokens: 5_000 }, { taskQueue: worker.taskQueue, force: true });
    expect(await updateCodeOf(loosen)).toBe(lm.LOOSENING_REFUSED);
    const forced = { taskQueue: worker.taskQueue, force: true, actor: 'mallory' };
    expect(await updateCodeOf(createLedger(client, id, { maxTokens: 5_000 }, forced))).toBe(lm.FORBIDDEN);
    expect(await updateCodeOf(resolveLedger(client, id, { release: true, actor: 'mallory' }))).toBe(lm.FORBIDDEN);
    expect(await updateCodeOf(abortAllLedger(client, id, { actor: 'mallory' }))).toBe(lm.FORBIDDEN);
    expect(await updateCodeOf(abortAllLedger(client, id))).toBe(lm.FORBIDDEN);
    const renamed = { taskQueue: worker.taskQueue, actor: 'mallory', operators: ['mallory'] };
    expect(await updateCodeOf(createLedger(client, id, { maxTokens: 1_000 }, renamed))).toBe(lm.FORBIDDEN);
    // Refused in the validators: not a trace in the ledger, its books or its events.
    expect(await ledgerStatus(client, id)).toEqual(before);

    // Tightening stays open to anyone.
    await createLedger(client, id, { maxTokens: 900 }, { taskQueue: worker.taskQueue, actor: 'mallory' });
    const status = await createLedger(client, id, { maxTokens: 5_000 }, { ...forced, actor: 'ops-bob' });
    expect(status.limits).toEqual({ maxTokens: 5_000 });
    expect(status.recentEvents.filter((e) => e.type === 'ledger:configured').at(-1)).toMatchObject({
      forcedBy: 'ops-bob',
      loosened: ['maxTokens 900 -> 5000'],
    });
    const resolved = await resolveLedger(client, id, { release: true, actor: 'ops-alice' });
    expect(resolved.resolution).toMatchObject({ actor: 'ops-alice', how: 'release', count: 1 });
    expect((await abortAllLedger(client, id, { actor: 'ops-bob' })).runs).toEqual([`${id}-run`]);
    expect(await ledgerStatus(client, id)).toMatchObject({
      state: 'open',
      used: { tokens: 100 },
      lastAbort: { actor: 'ops-bob', runs: [`${id}-run`] },
    });
  });

  it("trusts any actor for the operators' calls on a ledger created without operators, as before", async () => {
    const { client, id } = await ledger('no-operators', { maxTokens: 1_000 });
    expect((await ledgerStatus(client, id)).operators).toBeNull();
    expect(await detailsOf(client, id)).toContain('operators: anyone (the ledger was created without `--operators`)');
    const forced = { taskQueue: worker.taskQueue, force: true, actor: 'mallory' };
    expect((await createLedger(client, id, { maxTokens: 5_000 }, forced)).limits).toEqual({ maxTokens: 5_000 });
    // Past the operator check: there is only nothing to resolve.
    expect(await updateCodeOf(resolveLedger(client, id, { release: true, actor: 'mallory' }))).toBe(
      lm.NOTHING_TO_RESOLVE,
    );
    expect((await abortAllLedger(client, id)).runs).toEqual([]);
    // But nobody names its operators now: the first to do so would own it.
    const taken = createLedger(client, id, { maxTokens: 5_000 }, { ...forced, operators: ['mallory'] });
    expect(await updateCodeOf(taken)).toBe(lm.FORBIDDEN);
    expect((await ledgerStatus(client, id)).operators).toBeNull();
  });

  it('keeps its operators across continue-as-new', async () => {
    const { client, id } = await ledger('operators-handover', {}, OPERATORS, 100);
    for (let i = 0; i < 40; i++) {
      const request = { workflowId: `run-${i}`, actor: 'ops-alice' } as { workflowId: string };
      await updateLedger(client, id, lm.ledgerRegisterUpdate, request);
    }
    let handovers = 0;
    for await (const run of client.workflow.list({ query: `WorkflowId = "${ledgerWorkflowId(id)}"` }))
      if (run.status.name === 'CONTINUED_AS_NEW') handovers += 1;
    expect(handovers).toBeGreaterThanOrEqual(1);
    expect((await ledgerStatus(client, id)).operators).toEqual(OPERATORS);
    expect(await updateCodeOf(abortAllLedger(client, id, { actor: 'mallory' }))).toBe(lm.FORBIDDEN);
  });

  it('takes --operators on ledger create, shows them in ledger status, and refuses others by name', async () => {
    const created = await ledger('operators-cli', { maxUsd: 5 });
    const { client } = created;
    let { id } = created;
    const env = { TEAMRUN_TASK_QUEUE: worker.taskQueue, TEAMRUN_ACTOR: 'mallory' };

    const bad = await teamrun(['ledger', 'create', id, '--max-usd', '5', '--operators', 'ops-alice,,ops-bob'], env);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--operators');
    expect(bad.stderr).toContain('name 2 ("")');

    // The ledger had no operators: nobody may name them now (the first to would own it).
    const taken = await teamrun(['ledger', 'create', id, '--max-usd', '5', '--operators', 'ops-alice, ops-bob'], env);
    expect(taken.code).not.toBe(0);
    expect(taken.stderr).toContain(`ledger ${id} was created without operators`);
    // Named when it is created, they hold.
    id = `${id}-named`;
    const namedId = id;
    onTestFinished(async () => {
      await ledgerHandle(client, namedId)
        .terminate('test cleanup')
        .catch(() => undefined);
    });
    const named = await teamrun(['ledger', 'create', id, '--max-usd', '5', '--operators', 'ops-alice, ops-bob'], env);
    expect(named.code).toBe(0);
    expect(named.stdout).toContain('operators  ops-alice, ops-bob');

    const looser = await teamrun(['ledger', 'create', id, '--max-usd', '10', '--force'], env);
    expect(looser.code).not.toBe(0);
    expect(looser.stderr).toContain(
      `forbidden: ledger ${id}: actor "mallory" is not one of the ledger's operators; ` +
        'only an operator may loosen its limits (maxUsd 5 -> 10)',
    );
    const abort = await teamrun(['ledger', 'abort-all', id], env);
    expect(abort.code).not.toBe(0);
    expect(abort.stderr).toContain('only an operator may abort every run');
    const renamed = await teamrun(['ledger', 'create', id, '--max-usd', '5', '--operators', 'mallory'], env);
    expect(renamed.stderr).toContain('only an operator may change its operators');

    const forced = await teamrun(['ledger', 'create', id, '--max-usd', '10', '--force', '--actor', 'ops-bob'], env);
    expect(forced.code).toBe(0);
    const status = await teamrun(['ledger', 'status', id], env);
    expect(status.stdout).toContain('usd        $0.00 of $10.00 used');
    expect(status.stdout).toContain('operators  ops-alice, ops-bob');
  });
});
