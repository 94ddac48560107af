import { Worker } from '@temporalio/worker';
import { describe, inject, it } from 'vitest';
import * as msg from '../../src/workflows/messages';
import { startRun, temporalAddress } from '../helpers/env';
import { workerForTest } from '../helpers/scenario';
import { taskOf, waitForStatus } from '../integration/takeover-helpers';
import { teamrun } from './teamrun-cli';

const cli = (...args: string[]) => teamrun([...args, '--address', temporalAddress()], {}, 60_000);
const output = (key: string) => ({ kind: 'shell', command: `echo '::teamrun-output::{"built":"${key}"}'` });

describe.concurrent('teamrun reopen: a finished task sent back for review (real worker, real dev server)', () => {
  it('reopens a succeeded task into adjudication naming its dependents that ran; operators only; once per request id', async ({
    expect,
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const handle = await startRun(
      {
        name: 'cli-reopen',
        governance: { operators: ['alice'] },
        tasks: [
          { key: 'build', executor: output('build') },
          { key: 'deploy', dependsOn: ['build'], executor: output('deploy') },
          { key: 'verify', dependsOn: ['deploy'], executor: { kind: 'noop' } },
          // Keeps the run open while the others are reopened and decided.
          { key: 'hold', executor: { kind: 'shell', command: 'exec sleep 600' } },
        ],
      },
      worker.taskQueue,
    );
    onTestFinished(async () => {
      if ((await handle.describe()).status.name === 'RUNNING') await handle.terminate('test finished');
    });
    const id = handle.workflowId;
    await waitForStatus(handle, 'verify', 'succeeded', 60_000);

    const forbidden = await cli('reopen', id, 'build', '--reason', 'shipped the wrong artifact', '--actor', 'mallory');
    expect(forbidden).toMatchObject({ code: 1, stderr: expect.stringContaining('reopenTask rejected: forbidden') });
    expect((await taskOf(handle, 'build')).status).toBe('succeeded');

    const args = ['reopen', id, 'build', '--reason', 'shipped the wrong artifact', '--actor', 'alice'];
    const reopened = await cli(...args, '--request-id', 'req-1');
    expect(reopened).toMatchObject({ code: 0 });
    expect(reopened.stdout).toContain('build: reopened -> adjudication\n  dependents that already ran: deploy, verify');
    const records = await handle.query(msg.adjudicationsQuery);
    expect(records).toEqual([
      expect.objectContaining({
        key: 'build',
        code: 'TEAM_TASK_REOPENED',
        actor: 'alice',
        requestId: 'req-1',
        dependents: ['deploy', 'verify'],
        reason:
          'reopened by alice (was succeeded): shipped the wrong artifact; dependents that already ran: deploy, verify',
        result: { built: 'build' },
        decision: null,
      }),
    ]);
    expect(await cli('adjudications', id)).toMatchObject({ stdout: expect.stringContaining('TEAM_TASK_REOPENED') });

    const again = await cli(...args, '--request-id', 'req-1', '--json');
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ ok: true, idempotent: true, dependents: ['deploy', 'verify'] });
    expect(await handle.query(msg.adjudicationsQuery)).toHaveLength(1);
    // Dependents stay as they ran.
    expect((await taskOf(handle, 'deploy')).status).toBe('succeeded');

    // Decided like any adjudication: accept without a result keeps what build reported.
    const accepted = await cli('adjudicate', id, 'build', '--accept', '--actor', 'alice');
    expect(accepted).toMatchObject({ code: 0, stdout: expect.stringContaining('build: accept -> succeeded') });
    expect(await taskOf(handle, 'build')).toMatchObject({ status: 'succeeded', output: { built: 'build' } });

    // The history so far, with the reopen and its decision, replays with today's workflow code; the reopen is
    // recorded behind its patch.
    const history = await handle.fetchHistory();
    const markers = history.events!.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch');
    const patchIds = markers.flatMap((e) =>
      Object.values(e.markerRecordedEventAttributes!.details ?? {}).flatMap((p) =>
        (p.payloads ?? []).map((payload) => Buffer.from(payload.data ?? []).toString('utf8')),
      ),
    );
    expect(patchIds.join(' ')).toContain('teamrun-reopen-task');
    await Worker.runReplayHistory({ workflowBundle: { codePath: inject('workflowBundle') } }, history, id);
  });

  it('refuses to reopen a closed run, saying what to do instead', async ({ expect, onTestFinished }) => {
    const worker = await workerForTest({}, onTestFinished);
    const handle = await startRun(
      { name: 'cli-reopen-closed', tasks: [{ key: 'only', executor: { kind: 'noop' } }] },
      worker.taskQueue,
    );
    expect((await handle.result()).status).toBe('succeeded');

    const closed = await cli('reopen', handle.workflowId, 'only', '--reason', 'too late?');
    expect(closed.code).toBe(1);
    expect(closed.stderr).toContain('a closed run cannot be reopened: start a new run with the task instead');
  });
});
