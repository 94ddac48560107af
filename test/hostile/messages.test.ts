import { describe, expect, it } from 'vitest';
import type { AdjudicateRequest, InterruptRequest } from '../../src/plan/requests/control';
import { teamRunHandle } from '../../src/client';
import * as msg from '../../src/workflows/messages';
import { waitFor } from '../helpers/env';
import { allTaskViews, runForTest, workerForTest } from '../helpers/scenario';
import { claimOf, eventsOf, rejectionCode, waitForStatus } from '../integration/takeover-helpers';
import { expectLiveWorker, largeMessageClient, workflowTaskFailures } from './corpus';

const MB = 1024 * 1024;
const big = (bytes: number) => 'x'.repeat(bytes);

describe('hostile messages against a live run', () => {
  it('refuses every bad update with a code, records every bad signal, holds results once, keeps the abort code, continues as new on history size', async () => {
    const worker = await workerForTest();
    const started = await runForTest(
      {
        name: 'hostile-messages',
        teammates: 2,
        lease: { ttlMs: 15_000, heartbeatEveryMs: 1_000 },
        tasks: [
          { key: 'a', executor: { kind: 'sleep', ms: 600_000 } },
          {
            key: 'b',
            dependsOn: ['a'],
            executor: { kind: 'shell', command: 'echo "::teamrun-output::$(cat "$TEAMRUN_INPUTS_FILE")"' },
          },
          { key: 'c', executor: { kind: 'sleep', ms: 600_000 } },
        ],
      },
      worker,
    );
    // Through a client that takes large answers: the history will hold 9 MB of refused signals.
    const handle = teamRunHandle(await largeMessageClient(), started.workflowId);
    const a = await claimOf(handle, 'a');
    await claimOf(handle, 'c');
    const interrupt = (request: unknown) =>
      rejectionCode(handle.executeUpdate(msg.interruptTaskUpdate, { args: [request as InterruptRequest] }));
    const adjudicate = (request: unknown) =>
      rejectionCode(handle.executeUpdate(msg.adjudicateUpdate, { args: [request as AdjudicateRequest] }));
    const abort = (request: unknown) =>
      rejectionCode(handle.executeUpdate(msg.abortRunUpdate, { args: [request as never] }));
    const send = (request: unknown) =>
      rejectionCode(handle.executeUpdate(msg.sendMessageUpdate, { args: [request as never] }));
    const read = (request: unknown) =>
      rejectionCode(handle.executeUpdate(msg.readInboxUpdate, { args: [request as never] }));
    const tighten = (request: unknown) =>
      rejectionCode(handle.executeUpdate(msg.tightenBudgetUpdate, { args: [request as never] }));

    // Updates: refused by their validators, with a code, before anything reaches history.
    const updates: Array<[string, Promise<string>, string]> = [
      [
        'interrupt: a 100 KB reason',
        interrupt({ key: 'a', fencingToken: a.fencingToken, reason: big(100_000) }),
        'value_too_large',
      ],
      [
        'interrupt: a 1,000-char actor',
        interrupt({ key: 'a', fencingToken: a.fencingToken, actor: big(1_000) }),
        'value_too_large',
      ],
      [
        'interrupt: a 300-char request id',
        interrupt({ key: 'a', fencingToken: a.fencingToken, requestId: big(300) }),
        'value_too_large',
      ],
      [
        'interrupt: a 1,000-char evidence digest',
        interrupt({ key: 'a', fencingToken: a.fencingToken, evidenceDigest: big(1_000) }),
        'value_too_large',
      ],
      ['interrupt: a key of the wrong type', interrupt({ key: 42, fencingToken: a.fencingToken }), 'invalid_request'],
      ['interrupt: no payload', interrupt(null), 'invalid_request'],
      ['abort: a lower-case code', abort({ code: 'deploy_freeze' }), 'invalid_request'],
      ['abort: a 65-char code', abort({ code: 'A'.repeat(65) }), 'invalid_request'],
      ['abort: a 100 KB reason', abort({ reason: big(100_000) }), 'value_too_large'],
      ['tightenBudget: no limit', tighten({ actor: 'x' }), 'invalid_request'],
      ['tightenBudget: a negative limit', tighten({ maxUsd: -1 }), 'invalid_request'],
      ['tightenBudget: a misspelt limit', tighten({ maxUSD: 1 }), 'invalid_request'],
      ['tightenBudget: a 1,000-char actor', tighten({ maxTasks: 1_000_000, actor: big(1_000) }), 'value_too_large'],
      [
        'adjudicate: key __proto__',
        adjudicate({ key: '__proto__', decision: 'accept', decisionId: 'd0' }),
        'not_found',
      ],
      [
        'adjudicate: key constructor',
        adjudicate({ key: 'constructor', decision: 'accept', decisionId: 'd0' }),
        'not_found',
      ],
      [
        'adjudicate: decision id "constructor" for a task not awaiting one',
        adjudicate({ key: 'a', decision: 'accept', decisionId: 'constructor' }),
        'adjudication_not_required',
      ],
      [
        'adjudicate: decision id "__proto__"',
        adjudicate({ key: 'a', decision: 'retry', decisionId: '__proto__' }),
        'adjudication_not_required',
      ],
      [
        'adjudicate: a 1.1 MB result (wedged the run before)',
        adjudicate({ key: 'a', decision: 'accept', decisionId: 'd1', result: { blob: big(1_100_000) } }),
        'value_too_large',
      ],
      [
        'adjudicate: a 300-char decision id',
        adjudicate({ key: 'a', decision: 'accept', decisionId: big(300) }),
        'value_too_large',
      ],
      [
        'adjudicate: decision "maybe"',
        adjudicate({ key: 'a', decision: 'maybe', decisionId: 'd2' }),
        'invalid_decision',
      ],
      ['adjudicate: no decision id', adjudicate({ key: 'a', decision: 'accept' }), 'decision_id_required'],
      [
        'adjudicate: a 1,000-char evidence digest',
        adjudicate({ key: 'a', decision: 'accept', decisionId: 'd3', evidenceDigest: big(1_000) }),
        'value_too_large',
      ],
      [
        'sendMessage: to __proto__',
        send({ from: 'coordinator', to: '__proto__', body: 1 }),
        'TEAM_MAILBOX_MESSAGE_INVALID',
      ],
      [
        'sendMessage: to teammate-999',
        send({ from: 'coordinator', to: 'teammate-999', body: 1 }),
        'TEAM_MAILBOX_MESSAGE_INVALID',
      ],
      [
        'sendMessage: a 1.1 MB body',
        send({ from: 'coordinator', to: 'a', body: big(1_100_000) }),
        'TEAM_MAILBOX_MESSAGE_TOO_LARGE',
      ],
      [
        'sendMessage: a 300-char subject',
        send({ from: 'coordinator', to: 'a', subject: big(300), body: 1 }),
        'TEAM_MAILBOX_MESSAGE_TOO_LARGE',
      ],
      ['sendMessage: no payload', send(null), 'TEAM_MAILBOX_MESSAGE_INVALID'],
      [
        'sendMessage: as task a with a stale token',
        send({ from: 'a', fencingToken: a.fencingToken + 1, to: 'c', body: 1 }),
        'stale_attempt',
      ],
      ['sendMessage: as task a without a token', send({ from: 'a', to: 'c', body: 1 }), 'stale_attempt'],
      ['readInbox: key __proto__', read({ key: '__proto__', fencingToken: 1 }), 'not_found'],
      ['readInbox: a stale token', read({ key: 'a', fencingToken: a.fencingToken + 1 }), 'stale_attempt'],
      ['readInbox: a task not running', read({ key: 'b', fencingToken: 1 }), 'stale_attempt'],
    ];
    const codes = await Promise.all(
      updates.map(async ([name, update, code]) => ({ name, code: await update, expected: code })),
    );
    expect(codes.filter((c) => c.code !== c.expected)).toEqual([]);

    // Signals: Temporal records them before the workflow sees them; each bad one changes nothing but a control:rejected event.
    const signals: Array<[string, unknown]> = [
      ['interruptTask', { key: 'a', fencingToken: a.fencingToken, reason: big(100_000) }],
      ['interruptTask', { key: '__proto__', fencingToken: 1 }],
      ['interruptTask', { key: 'constructor', fencingToken: 1 }],
      ['interruptTask', { key: 'a', fencingToken: a.fencingToken + 7 }],
      ['interruptTask', 'a'],
      ['abortRun', { code: 'not a code' }],
      ['abortRun', { reason: big(50_000) }],
      ['abortRun', [1, 2, 3]],
    ];
    for (const [name, payload] of signals) await handle.signal<[unknown]>(name, payload);
    const rejected = await waitFor('every bad signal recorded', async () => {
      const events = await eventsOf(handle, 'control:rejected');
      return events.length >= signals.length ? events : null;
    });
    expect(rejected.map((e) => e.reason)).toEqual([
      'value_too_large',
      'not_active',
      'not_active',
      'stale_attempt',
      'invalid_request',
      'invalid_request',
      'value_too_large',
      'invalid_request',
    ]);
    expect(rejected.find((e) => e.reason === 'value_too_large')).toMatchObject({ field: 'reason' });
    expect((await handle.query(msg.statusQuery)).state).toBe('running');

    // An interruption at every bound, an accepted result at the output bound: held once, handed to the dependent.
    const verdict = await handle.executeUpdate(msg.interruptTaskUpdate, {
      args: [
        {
          key: 'a',
          fencingToken: a.fencingToken,
          actor: 'o'.repeat(200),
          requestId: 'r'.repeat(200),
          reason: 'y'.repeat(1_000),
          evidenceDigest: 'd'.repeat(256),
        },
      ],
    });
    expect(verdict.ok).toBe(true);
    await waitForStatus(handle, 'a', 'adjudication');
    const result = { blob: big(60_000) };
    const decided = await handle.executeUpdate(msg.adjudicateUpdate, {
      args: [{ key: 'a', decision: 'accept', decisionId: 'constructor', result, evidenceDigest: 'd'.repeat(256) }],
    });
    expect(decided).toMatchObject({ ok: true, task: { status: 'succeeded' } });
    const again = await handle.executeUpdate(msg.adjudicateUpdate, {
      args: [{ key: 'a', decision: 'accept', decisionId: 'constructor' }],
    });
    expect(again).toMatchObject({ ok: true, idempotent: true, task: { status: 'succeeded', output: result } });
    await waitForStatus(handle, 'b', 'succeeded');
    expect((await handle.query(msg.tasksQuery)).find((t) => t.key === 'b')!.output).toEqual({ a: result });

    // The operator's abort code lands on the adjudication it creates.
    expect(
      await handle.executeUpdate(msg.abortRunUpdate, {
        args: [{ code: 'DEPLOY_FREEZE', reason: 'freeze', actor: 'ops' }],
      }),
    ).toMatchObject({ ok: true, activeClaims: 1 });
    await waitForStatus(handle, 'c', 'adjudication');
    expect((await handle.query(msg.adjudicationsQuery)).find((r) => r.key === 'c')).toMatchObject({
      code: 'DEPLOY_FREEZE',
      reason: 'freeze',
      actor: 'ops',
    });

    // Rejected 1.1 MB signals fill history; the run continues as new before the size limit, not only on event count.
    const firstRun = (await handle.describe()).runId;
    for (let i = 0; i < 8; i++)
      await handle.signal<[unknown]>('abortRun', { reason: big(1.1 * MB), requestId: `flood-${i}` });
    await waitFor('the run to continue as new', async () => (await handle.describe()).runId !== firstRun, 60_000);
    const { events } = await handle.query(msg.eventsQuery, { limit: 10_000 });
    const handover = events.find((e) => e.type === 'run:continuing-as-new');
    expect(handover).toBeDefined();
    expect(Number(handover!.historySize)).toBeGreaterThanOrEqual(8 * MB);
    expect(Number(handover!.historyLength)).toBeLessThan(1_000);

    // The continued run still knows everything: decide the last adjudication, and it closes.
    await handle.executeUpdate(msg.adjudicateUpdate, { args: [{ key: 'c', decision: 'reject', decisionId: 'd-c' }] });
    const final = await handle.result();
    expect(final).toMatchObject({ status: 'aborted' });
    // Two 60 KB outputs do not fit the result's 64 KiB of views: the tasks query holds every view.
    expect(final.omittedTasks).toBeGreaterThan(0);
    expect((await allTaskViews(handle)).map((t) => [t.key, t.status])).toEqual([
      ['a', 'succeeded'],
      ['b', 'succeeded'],
      ['c', 'failed'],
    ]);
    expect(await workflowTaskFailures(handle)).toEqual([]);
    await expectLiveWorker(worker);
  });
});
