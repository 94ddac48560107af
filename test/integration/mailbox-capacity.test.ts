import { WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { MAILBOX_LIMITS } from '../../src/team/mailbox';
import * as msg from '../../src/workflows/messages';
import { waitFor } from '../helpers/env';
import { runForTest, workerForTest, updateCodeOf } from '../helpers/scenario';

const historyOf = async (handle: WorkflowHandle) => {
  const events = (await handle.fetchHistory()).events ?? [];
  return { events: events.length, bytes: JSON.stringify(events).length };
};

/** Refused sends past capacity: the most history events they may add, in all (the run's own work is done). */
const REFUSED_HISTORY_BOUND = 10;

describe('refused messages cost nothing', () => {
  it('2,000 sends past capacity are refused before they reach history, and the events list keeps the run', async () => {
    const worker = await workerForTest();
    const handle = await runForTest(
      {
        name: 'mail-capacity',
        governance: { operators: ['alice'] },
        tasks: [
          { key: 'first', executor: { kind: 'noop' } },
          // Never decided: the run stays open and nobody reads the sleeper's messages.
          { key: 'sleeper', dependsOn: ['first'], executor: { kind: 'approval' } },
        ],
      },
      worker,
    );
    await waitFor('the sleeper waiting', async () => (await handle.query(msg.statusQuery)).pendingAdjudications === 1);
    const send = (body: unknown, to = 'sleeper') =>
      handle.executeUpdate(msg.sendMessageUpdate, {
        args: [{ from: 'coordinator', actor: 'alice', to, body }],
      });
    const start = await historyOf(handle);
    // A finished task reads no more: a message to it is refused, and leaves no trace; a broadcast still goes out.
    const toFinished = await send('too late', 'first').catch((err: unknown) => err);
    expect(toFinished).toBeInstanceOf(WorkflowUpdateFailedError);
    expect((toFinished as WorkflowUpdateFailedError).cause).toMatchObject({
      type: 'TEAM_MAILBOX_MESSAGE_INVALID',
      message: expect.stringContaining('task "first" has finished (succeeded)'),
    });
    expect((await historyOf(handle)).events).toBe(start.events);
    expect(await send('to all', '*')).toEqual({ ok: true, id: 1 });

    for (let n = 2; n <= MAILBOX_LIMITS.messages; n++) await send(n);
    const before = await historyOf(handle);

    const codes = new Map<string, number>();
    // Eight at a time: the server takes at most ten updates in flight per workflow.
    for (let batch = 0; batch < 2_000; batch += 8) {
      const answers = await Promise.all(Array.from({ length: 8 }, (_, n) => updateCodeOf(send({ n: batch + n }))));
      for (const code of answers) codes.set(code ?? 'none', (codes.get(code ?? 'none') ?? 0) + 1);
    }
    expect(Object.fromEntries(codes)).toEqual({ TEAM_MAILBOX_CAPACITY_EXCEEDED: 2_000 });

    const after = await historyOf(handle);
    expect(after.events - before.events).toBeLessThanOrEqual(REFUSED_HISTORY_BOUND);
    expect(after.bytes - before.bytes).toBeLessThan(10_000);

    // The run's own story is still there, from its start; no refusal pushed it out.
    const { events } = await handle.query(msg.eventsQuery, { limit: 2_000 });
    const types = events.map((e) => e.type);
    expect(types.slice(0, 1)).toEqual(['run:start']);
    expect(types).toContain('task:completed');
    expect(types).toContain('task:adjudication-required');
    expect(types.filter((t) => t === 'mailbox:sent')).toHaveLength(MAILBOX_LIMITS.messages);
    expect(types.filter((t) => t === 'mailbox:backpressure').length).toBeLessThanOrEqual(1);
    expect(events.filter((e) => e.type === 'mailbox:pressure').map((e) => e.level)).toEqual([
      'high',
      'critical',
      'full',
    ]);
  });
});
