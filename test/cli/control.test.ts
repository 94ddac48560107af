import { describe, it } from 'vitest';
import * as msg from '../../src/workflows/messages';
import { startRun, temporalAddress } from '../helpers/env';
import { workerForTest } from '../helpers/scenario';
import { claimOf, taskOf, waitForStatus } from '../integration/takeover-helpers';
import { teamrun } from './teamrun-cli';

const lease = { ttlMs: 3_000 };
/** Holds on its first attempt; a later attempt succeeds at once. */
const holdFirstAttempt = { kind: 'shell', command: '[ "$TEAMRUN_ATTEMPT" = 1 ] && exec sleep 600; true' };
const hold = { kind: 'shell', command: 'exec sleep 600' };

const cli = (...args: string[]) => teamrun([...args, '--address', temporalAddress()], {}, 60_000);

describe.concurrent('teamrun claims / interrupt / adjudications / adjudicate / abort', () => {
  it('lets an operator see a claim, take it over, decide it, and stop the run', async ({ expect, onTestFinished }) => {
    const worker = await workerForTest({}, onTestFinished);
    const handle = await startRun(
      {
        name: 'cli-control',
        lease,
        governance: { operators: ['alice'] },
        tasks: [
          { key: 'edit', executor: holdFirstAttempt },
          { key: 'other', executor: hold },
          { key: 'after', dependsOn: ['edit'], executor: { kind: 'noop' } },
        ],
      },
      worker.taskQueue,
    );
    const id = handle.workflowId;
    await claimOf(handle, 'edit');
    await claimOf(handle, 'other');

    const claims = await cli('claims', id);
    expect(claims).toMatchObject({ code: 0, stdout: expect.stringMatching(/^KEY\s+TOKEN\s+ATTEMPT\s+HOLDER/) });
    expect(claims.stdout).toMatch(/edit\s+1\s+1\s+teammate-\d/);

    const forbidden = await cli('interrupt', id, 'edit', '--actor', 'mallory');
    expect(forbidden).toMatchObject({ code: 1, stderr: expect.stringContaining('interruptTask rejected: forbidden') });
    const stale = await cli('interrupt', id, 'edit', '--actor', 'alice', '--fencing-token', '7');
    expect(stale).toMatchObject({ code: 1, stdout: expect.stringContaining('not interrupted: stale_attempt') });
    expect((await claimOf(handle, 'edit')).interrupted).toBe(false);

    const taken = await cli(
      'interrupt',
      id,
      'edit',
      '--actor',
      'alice',
      '--reason',
      'mine now',
      '--request-id',
      'req-7',
    );
    expect(taken).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^interrupted: edit \(token 1, teammate-\d\)\n {2}request req-7 by alice/),
    });
    await waitForStatus(handle, 'edit', 'adjudication');

    const listed = await cli('adjudications', id);
    expect(listed).toMatchObject({
      code: 0,
      // EVIDENCE and CASE are "-": no digest given, no case bound.
      stdout: expect.stringMatching(
        /edit\s+TEAM_TASK_HUMAN_INTERRUPTED\s+1\s+alice\s+\S+\s+-\s+-\s+pending\s+mine now/,
      ),
    });
    expect(listed.stdout).toContain('1 pending');

    const both = await cli('adjudicate', id, 'edit', '--accept', '--reject');
    expect(both).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('give exactly one of --retry, --accept or --reject'),
    });
    const unknown = await cli('adjudicate', id, 'nope', '--accept', '--actor', 'alice');
    expect(unknown).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/adjudicate rejected: not_found: adjudicate: no task "nope"/),
    });

    const retried = await cli(
      'adjudicate',
      id,
      'edit',
      '--retry',
      '--actor',
      'alice',
      '--decision-id',
      'dec-1',
      '--reason',
      'go again',
    );
    expect(retried).toMatchObject({ code: 0, stdout: expect.stringContaining('edit: retry -> ready') });
    await waitForStatus(handle, 'after', 'succeeded');
    expect(await taskOf(handle, 'edit')).toMatchObject({ status: 'succeeded', fencingToken: 2 });
    const finished = await cli('interrupt', id, 'edit', '--actor', 'alice');
    expect(finished).toMatchObject({ code: 1, stdout: expect.stringContaining('not interrupted: not_active') });

    const aborted = await cli('abort', id, '--reason', 'release freeze', '--actor', 'alice');
    expect(aborted).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('aborted: 1 running attempt(s) cancelled; they settle in adjudication'),
    });
    await waitForStatus(handle, 'other', 'adjudication');
    const notNow = await cli('adjudicate', id, 'other', '--retry', '--actor', 'alice');
    expect(notNow).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('adjudicate rejected: run_not_accepting_work'),
    });
    const rejected = await cli('adjudicate', id, 'other', '--reject', '--actor', 'alice', '--json');
    expect(JSON.parse(rejected.stdout)).toMatchObject({ ok: true, task: { key: 'other', status: 'failed' } });

    const result = await handle.result();
    expect(result.status).toBe('aborted');
    const closed = JSON.parse((await cli('adjudications', id, '--json')).stdout) as Array<Record<string, unknown>>;
    expect(closed).toEqual([
      expect.objectContaining({
        key: 'edit',
        requestId: 'req-7',
        actor: 'alice',
        fencingToken: 1,
        decision: expect.objectContaining({ decisionId: 'dec-1', decision: 'retry' }),
      }),
      expect.objectContaining({
        key: 'other',
        code: 'TEAM_RUN_ABORTED_ADJUDICATION_REQUIRED',
        reason: 'release freeze',
        decision: expect.objectContaining({ decision: 'reject' }),
      }),
    ]);
    // 14 CLI runs: at load 30+ on the 2 cores the test ran past the default 120 s three times out of three (41 s in CI).
  }, 300_000);

  it('abort --no-adjudication fails the running attempts instead, and a run that does not exist is named', async ({
    expect,
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const handle = await startRun(
      { name: 'cli-abort', lease, tasks: [{ key: 'hold', executor: hold }] },
      worker.taskQueue,
    );
    await claimOf(handle, 'hold');
    const aborted = await cli('abort', handle.workflowId, '--reason', 'wrong plan', '--no-adjudication', '--json');
    expect(aborted).toMatchObject({ code: 0 });
    expect(JSON.parse(aborted.stdout)).toEqual({ ok: true, activeClaims: 1 });
    const result = await handle.result();
    expect(result.status).toBe('aborted');
    expect(result.tasks[0]).toMatchObject({ status: 'failed', lastError: 'run aborted while the attempt was running' });
    expect(result.adjudications).toEqual([]);
    const events = await handle.query(msg.eventsQuery, { limit: 1_000 });
    expect(events.events.find((e) => e.type === 'run:abort-requested')).toMatchObject({
      reason: 'wrong plan',
      actor: expect.any(String),
    });

    // A run that has just ended is named as ended, with its status, not as "no open run".
    const ended = await cli('abort', handle.workflowId, '--reason', 'again');
    expect(ended).toMatchObject({
      code: 1,
      stderr: expect.stringContaining(`run "${handle.workflowId}" has ended: aborted`),
    });
    expect(ended.stderr).not.toContain('no open run');

    const missing = await cli('claims', 'no-such-run-anywhere');
    expect(missing).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('no open run with id "no-such-run-anywhere"'),
    });
  });
});
