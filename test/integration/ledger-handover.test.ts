import { describe, expect, it } from 'vitest';
import { createLedger, ledgerStatus } from '../../src/ledger/client';
import { ledgerHandle, updateLedger } from '../../src/ledger/handle';
import * as lm from '../../src/ledger/messages';
import { ledgerWorkflowId } from '../../src/plan/requests/ledger';
import { testClient, uniqueQueue } from '../helpers/env';
import { workerForTest } from '../helpers/scenario';

/** Settlements sent through the ledger's handovers. */
const SETTLES = 200;
/** Updates in flight at once: the dev server takes at most 10 per workflow. */
const LANES = 5;

describe('ledger updates sent while the ledger hands over', () => {
  it('given a ledger that continues as new every ~100 events, when 200 settlements arrive, then each is charged once', async () => {
    const client = await testClient();
    const worker = await workerForTest();
    const id = uniqueQueue('ledger-handover');
    // Settled by hand, as one of the ledger's operators may (a run's worker would carry its proof instead).
    const ops = { actor: 'ops', operators: ['ops'] };
    await createLedger(client, id, {}, { taskQueue: worker.taskQueue, continueAsNewAfterEvents: 100, ...ops });

    // Renewals of a slot the ledger does not hold, every 20 ms, as busy attempts send them: a signal that reaches
    // the ledger while it continues as new makes the server fail that workflow task, and the updates it was handed.
    let sending = true;
    const noise = (async () => {
      for (let i = 0; sending; i++) {
        await ledgerHandle(client, id).signal(lm.ledgerRenewSignal, { attemptId: `ghost-${i}` });
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const failures: string[] = [];
    const duplicates: string[] = [];
    let next = 0;
    const lane = async () => {
      for (let i = next++; i < SETTLES; i = next++) {
        const attemptId = `attempt-${i}`;
        try {
          const verdict = await updateLedger(client, id, lm.ledgerSettleUpdate, {
            attemptId,
            usage: { inputTokens: 1 },
            actor: 'ops',
          } as Parameters<typeof updateLedger>[3]);
          if (verdict.duplicate) duplicates.push(attemptId);
        } catch (err) {
          const cause = (err as Error).cause as Error | undefined;
          failures.push(`${attemptId}: ${(err as Error).message}${cause ? `: ${cause.message}` : ''}`);
        }
      }
    };
    await Promise.all(Array.from({ length: LANES }, lane));
    sending = false;
    await noise;

    expect(failures).toEqual([]);
    // A settle whose first delivery the server could not confirm (a handover, a timed-out workflow task on a loaded
    // machine) is sent again under the same update id; an update id is known only to the run it reached, so a try
    // that lands on the next run is a new update there, and the ledger answers it as a duplicate of the charged one.
    // Such repeats are allowed, and each is counted as the duplicate it is: every settlement is still charged once.
    if (duplicates.length) console.log(`[ledger-handover] answered as duplicates: ${duplicates.join(', ')}`);
    expect(await ledgerStatus(client, id)).toMatchObject({
      used: { tokens: SETTLES },
      counters: { settled: SETTLES, duplicateSettles: duplicates.length },
    });
    let handovers = 0;
    for await (const run of client.workflow.list({ query: `WorkflowId = "${ledgerWorkflowId(id)}"` }))
      if (run.status.name === 'CONTINUED_AS_NEW') handovers += 1;
    expect(handovers).toBeGreaterThanOrEqual(3);
  });
});
