import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineExecutor } from '../../src/activities/executors/define';
import { MailboxRefused } from '../../src/worker';
import { eventsOf, runForTest, workerForTest } from '../helpers/scenario';

/**
 * A TypeScript executor speaks to its run's mailbox in process: `ctx.sendMessage` and `ctx.readInbox`
 * go through the worker's attempt gateway as the attempt (proven, confirmed), like `teamrun send`.
 */
const mail = defineExecutor(z.object({ role: z.enum(['writer', 'reader']) }), async (spec, ctx) => {
  if (spec.role === 'writer') {
    const sent = await ctx.sendMessage!({ to: 'reader', subject: 'schema', body: 'use v2 of the schema' });
    let refused: { name: string; code: string } | null = null;
    try {
      await ctx.sendMessage!({ to: 'nobody-here', body: 'lost' });
    } catch (err) {
      if (err instanceof MailboxRefused) refused = { name: err.name, code: err.code };
      else throw err;
    }
    return { output: { sent: sent.id, refused } };
  }
  // The reader waits (bounded) for what the writer sends while both run.
  for (let i = 0; i < 600 && !ctx.signal.aborted; i++) {
    const messages = await ctx.readInbox!();
    const got = messages.filter((m) => m.from === 'writer');
    if (got.length) {
      const again = await ctx.readInbox!({ peek: true });
      return { output: { got: got.map((m) => ({ from: m.from, subject: m.subject, body: m.body })), again } };
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('no message from the writer within 120 s');
});

describe('ctx.sendMessage and ctx.readInbox in an ExecutorContext', () => {
  it('a writer task sends, a reader task reads it once; a bad recipient is refused with its code', async () => {
    const worker = await workerForTest({ executors: { mail } });
    const handle = await runForTest(
      {
        name: 'executor-mailbox',
        teammates: 2,
        tasks: [
          { key: 'reader', executor: { kind: 'mail', role: 'reader' } },
          { key: 'writer', executor: { kind: 'mail', role: 'writer' } },
        ],
      },
      worker,
    );
    const result = await handle.result();
    expect(result.status, JSON.stringify(result.tasks.map((t) => [t.key, t.lastError]))).toBe('succeeded');
    const writer = result.tasks.find((t) => t.key === 'writer')!.output as Record<string, unknown>;
    const reader = result.tasks.find((t) => t.key === 'reader')!.output as Record<string, unknown>;
    expect(writer.sent).toEqual(expect.any(Number));
    expect(writer.refused).toEqual({ name: 'MailboxRefused', code: 'TEAM_MAILBOX_MESSAGE_INVALID' });
    expect(reader.got).toEqual([{ from: 'writer', subject: 'schema', body: 'use v2 of the schema' }]);
    // Read once: the cursor moved past it.
    expect(reader.again).toEqual([]);
    // The run took the message as the writer's attempt, and the result's mailbox counts it.
    const sent = await eventsOf(handle, 'mailbox:sent');
    expect(sent).toEqual([expect.objectContaining({ from: 'writer', to: 'reader' })]);
    expect(result.mailbox).toMatchObject({ sent: 1 });
    expect(result.members?.map((m) => m.state)).toEqual(['shutdown', 'shutdown']);
    expect(result.stats).toMatchObject({ claimable: 0, expiredLeases: 0 });
  });
});
