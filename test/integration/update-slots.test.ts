/**
 * Made-up attempt proofs cannot hold a run's door (issue 39): Temporal lets a workflow have 10 updates in flight,
 * and a proof naming a queue nobody polls used to wait out its confirmation's 20 s schedule-to-start. Someone with
 * update rights, no operator, keeps 10 such updates in flight; the run's task reserves budget meanwhile and an
 * operator aborts the run.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import * as msg from '../../src/workflows/messages';
import { startRun, waitFor } from '../helpers/env';
import { eventsOf, workerForTest } from '../helpers/scenario';

/** What `teamrun reserve --tokens 50000` sends the gateway; prints the HTTP status. */
const reserve =
  `curl -s -o /dev/null -w '%{http_code}' --unix-socket "$TEAMRUN_ATTEMPT_SOCKET" ` +
  `-H "Authorization: Bearer $TEAMRUN_ATTEMPT_SECRET" -d '{"tokens":50000}' http://gateway/reserve`;

describe('update slots under made-up proofs', () => {
  it("10 updates with made-up proofs in flight do not stop a task's reserve or delay an operator's abort", async ({
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const handle = await startRun(
      {
        name: 'slots',
        governance: { operators: ['ops'] },
        awaitAdjudication: false,
        budget: { maxTokens: 1_000_000 },
        // Its grant is its estimate: each reserve asks the run. Reserves after the forgeries are in flight, then once more after the slots had 20 s to fill up again.
        tasks: [
          {
            key: 'a',
            estimate: { tokens: 100 },
            executor: { kind: 'shell', command: `sleep 3; ${reserve}; sleep 22; ${reserve}; sleep 120` },
          },
        ],
      },
      worker.taskQueue,
    );
    // Each a task's own request as it would claim to be one, with a proof no worker drew: a queue nobody polls.
    const forged = (key: string) =>
      handle
        .executeUpdate('extendReservation', {
          args: [
            {
              key,
              fencingToken: 1,
              tokens: 1,
              usd: 0,
              attempt: { queue: `nobody-polls-${randomUUID()}`, nonce: randomBytes(18).toString('base64url') },
            },
          ],
        })
        .then(
          () => 'accepted',
          (err: Error) => (err.cause as Error | undefined)?.message ?? err.message,
        );
    let attacking = true;
    const outcomes = new Map<string, number>();
    let inFlight = 0;
    // 10 in flight at all times, each naming the running attempt (before and after it announced its worker's queue).
    const lane = async () => {
      while (attacking) {
        inFlight += 1;
        const outcome = await forged('a');
        inFlight -= 1;
        const code = outcome.split(':')[0];
        outcomes.set(code, (outcomes.get(code) ?? 0) + 1);
        // A refused forgery holds no slot; what the attack needs is forgeries that wait (before the fix, 20 s each).
        await new Promise((r) => setTimeout(r, 250));
      }
    };
    const lanes = Array.from({ length: 10 }, () => lane());
    try {
      const extended = await waitFor(
        'two reserves of the task granted',
        async () => {
          const granted = await eventsOf(handle, 'budget:reservation-extended');
          return granted.length >= 2 ? granted : null;
        },
        90_000,
      );
      expect(extended.map((e) => e.key)).toEqual(['a', 'a']);
      const pendingAtAbort = inFlight;
      const started = Date.now();
      const verdict = await handle.executeUpdate(msg.abortRunUpdate, {
        args: [{ reason: 'stop it', requestId: 'abort-1', actor: 'ops' }],
      });
      const abortMs = Date.now() - started;
      console.log(
        `[update-slots] operator's abort answered in ${abortMs} ms with ${pendingAtAbort} forged update(s) in flight; ` +
          `forged outcomes so far: ${JSON.stringify(Object.fromEntries(outcomes))}`,
      );
      expect(verdict).toMatchObject({ ok: true });
    } finally {
      attacking = false;
      await Promise.all(lanes);
    }
    const result = await handle.result();
    expect(result.status).toBe('aborted');
    // None of the forged ones was taken as the task's.
    expect(outcomes.get('accepted') ?? 0).toBe(0);
  });
});
