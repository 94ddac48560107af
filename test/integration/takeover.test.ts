import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, it } from 'vitest';
import type { InterruptRequest } from '../../src/plan/requests/control';
import * as msg from '../../src/workflows/messages';
import { startRun, waitFor } from '../helpers/env';
import { workerForTest } from '../helpers/scenario';
import {
  alive,
  claimOf,
  eventsOf,
  gateExecutor,
  pidsOf,
  shellHolder,
  stubbornExecutor,
  tempDir,
  temporal,
} from './takeover-helpers';
import { workflowCodeFailures } from '../helpers/history';

const lease = { ttlMs: 3_000 };

describe.concurrent('a human takes over a running task (interruptTask)', () => {
  it('binds to the attempt that holds the token, and keeps what an executor that ignored the abort returned as evidence', async ({
    expect,
    onTestFinished,
  }) => {
    const stubborn = stubbornExecutor();
    const worker = await workerForTest({ executors: { stubborn: stubborn.executor } }, onTestFinished);
    const handle = await startRun(
      {
        name: 'takeover-bind',
        lease,
        awaitAdjudication: false,
        tasks: [
          { key: 'done', executor: { kind: 'noop' } },
          { key: 'edit', dependsOn: ['done'], executor: { kind: 'stubborn' } },
          { key: 'publish', dependsOn: ['edit'], executor: { kind: 'noop' } },
        ],
      },
      worker.taskQueue,
    );
    const claim = await claimOf(handle, 'edit');
    const interrupt = (request: Record<string, unknown>) =>
      handle.executeUpdate(msg.interruptTaskUpdate, { args: [{ key: 'edit', ...request } as InterruptRequest] });

    expect(await interrupt({ fencingToken: claim.fencingToken + 1, requestId: 'wrong' })).toEqual({
      ok: false,
      reason: 'stale_attempt',
    });
    expect(await handle.executeUpdate(msg.interruptTaskUpdate, { args: [{ key: 'done', fencingToken: 1 }] })).toEqual({
      ok: false,
      reason: 'not_active',
    });
    expect((await claimOf(handle, 'edit')).interrupted).toBe(false);
    expect(stubborn.wasAborted()).toBe(false);

    const verdict = await interrupt({
      fencingToken: claim.fencingToken,
      requestId: 'take-1',
      actor: 'alice',
      reason: 'the draft is going the wrong way',
      evidenceDigest: 'sha256:draft-v3',
    });
    expect(verdict).toMatchObject({
      ok: true,
      interruption: {
        key: 'edit',
        fencingToken: claim.fencingToken,
        holder: claim.holder,
        leaseId: claim.leaseId,
        requestId: 'take-1',
      },
    });
    await waitFor('the executor to see the abort', () => stubborn.wasAborted());
    // The executor holds on after the abort: the attempt is still live, so these bind to it.
    expect(await interrupt({ fencingToken: claim.fencingToken, requestId: 'take-1' })).toEqual({
      ...verdict,
      idempotent: true,
    });
    expect(await interrupt({ fencingToken: claim.fencingToken, requestId: 'take-2' })).toEqual({
      ok: false,
      reason: 'already_interrupted',
    });

    stubborn.release();
    const result = await handle.result();
    expect(result.status).toBe('unresolved');
    expect(result.tasks.map((t) => [t.key, t.status])).toEqual([
      ['done', 'succeeded'],
      ['edit', 'adjudication'],
      ['publish', 'skipped'],
    ]);
    const record = result.adjudications[0];
    expect(record).toMatchObject({
      key: 'edit',
      code: 'TEAM_TASK_HUMAN_INTERRUPTED',
      reason: 'the draft is going the wrong way',
      requestId: 'take-1',
      actor: 'alice',
      evidenceDigest: 'sha256:draft-v3',
      holder: claim.holder,
      leaseId: claim.leaseId,
      fencingToken: claim.fencingToken,
      usage: { inputTokens: 11, outputTokens: 7 },
      result: { wrote: 'report.md', lines: 42 },
      decision: null,
    });
    expect(record.requestedAt).toBeGreaterThanOrEqual(claim.startedAt);
    expect(result.adjudications).toHaveLength(1);
    expect(result.tasks[1].attempts).toBe(1);

    const requested = await eventsOf(handle, 'task:interrupt-requested');
    expect(requested).toEqual([
      expect.objectContaining({ key: 'edit', requestId: 'take-1', actor: 'alice', fencingToken: claim.fencingToken }),
    ]);
    const rejected = await eventsOf(handle, 'control:rejected');
    expect(rejected.map((e) => [e.key, e.reason, e.requestId])).toEqual([
      ['edit', 'stale_attempt', 'wrong'],
      ['done', 'not_active', null],
      ['edit', 'already_interrupted', 'take-2'],
    ]);
  });

  it('through `temporal workflow signal`, with the token from `temporal workflow query`, kills the shell process group', async ({
    expect,
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const pidFile = path.join(tempDir('signal'), 'pids');
    const handle = await startRun(
      { name: 'takeover-signal', lease, awaitAdjudication: false, tasks: [shellHolder('build', pidFile)] },
      worker.taskQueue,
    );
    const pids = await pidsOf(pidFile);
    // Asked again while the server answers "Workflow is busy" (a workflow task in flight on a loaded machine).
    const queried = JSON.parse(
      await waitFor('temporal workflow query to answer', () =>
        temporal('workflow', 'query', '--workflow-id', handle.workflowId, '--type', 'activeClaims', '--output', 'json'),
      ),
    ) as { queryResult: msg.ActiveClaim[][] };
    const [claim] = queried.queryResult[0];
    expect(claim).toMatchObject({ key: 'build', fencingToken: 1, interrupted: false });
    expect(pids.every(alive)).toBe(true);

    const input = JSON.stringify({
      key: 'build',
      fencingToken: claim.fencingToken,
      requestId: 'cli-1',
      actor: 'ops',
      reason: 'taking over',
    });
    // Sent again while the server answers "Workflow is busy" (refused, not delivered; the request id makes it one).
    await waitFor('temporal workflow signal to be taken', async () => {
      await temporal(
        'workflow',
        'signal',
        '--workflow-id',
        handle.workflowId,
        '--name',
        'interruptTask',
        '--input',
        input,
      );
      return true;
    });

    await waitFor('the shell and its child to be gone', () => !pids.some(alive), 60_000, 20);
    const result = await handle.result();
    expect(result.adjudications).toEqual([
      expect.objectContaining({
        key: 'build',
        code: 'TEAM_TASK_HUMAN_INTERRUPTED',
        requestId: 'cli-1',
        actor: 'ops',
        reason: 'taking over',
        fencingToken: claim.fencingToken,
        usage: expect.objectContaining({ inputTokens: 3, outputTokens: 2 }),
        result: { step: 1 },
      }),
    ]);
    expect(result.budget.used.tokens).toBe(5);
  });

  it('through `temporal workflow update execute` without a fencing token: the current attempt is interrupted', async ({
    expect,
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const pidFile = path.join(tempDir('no-token'), 'pids');
    const handle = await startRun(
      { name: 'takeover-no-token', lease, awaitAdjudication: false, tasks: [shellHolder('build', pidFile)] },
      worker.taskQueue,
    );
    const pids = await pidsOf(pidFile);
    const claim = await claimOf(handle, 'build');
    const input = JSON.stringify({ key: 'build', requestId: 'no-token-1', actor: 'ops' });
    const out = await temporal(
      'workflow',
      'update',
      'execute',
      '--workflow-id',
      handle.workflowId,
      '--name',
      'interruptTask',
      '--input',
      input,
      '--output',
      'json',
    );
    expect(out).toContain('"ok": true');
    expect(out).toContain(`"fencingToken": ${claim.fencingToken}`);
    await waitFor('the shell and its child to be gone', () => !pids.some(alive), 60_000, 20);
    const result = await handle.result();
    expect(result.adjudications).toEqual([
      expect.objectContaining({
        key: 'build',
        code: 'TEAM_TASK_HUMAN_INTERRUPTED',
        requestId: 'no-token-1',
        fencingToken: claim.fencingToken,
      }),
    ]);
  });

  it('an interrupt without a reason says who took the task over; an attempt the wall clock stopped says so', async ({
    expect,
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const dir = tempDir('reasons');
    const handle = await startRun(
      {
        name: 'takeover-reasons',
        teammates: 3,
        lease,
        awaitAdjudication: false,
        budget: { maxWallMs: 12_000 },
        tasks: ['taken', 'anonymous', 'walled'].map((key) => shellHolder(key, path.join(dir, `${key}.pids`))),
      },
      worker.taskQueue,
    );
    const interrupt = async (key: string, actor?: string) => {
      const claim = await claimOf(handle, key);
      const verdict = await handle.executeUpdate(msg.interruptTaskUpdate, {
        args: [{ key, fencingToken: claim.fencingToken, ...(actor ? { actor } : {}) }],
      });
      expect(verdict.ok).toBe(true);
    };
    await interrupt('taken', 'alice');
    await interrupt('anonymous');
    await waitFor(
      'both takeovers to settle',
      async () => (await handle.query(msg.adjudicationsQuery)).length === 2,
      60_000,
    );
    const reasons = (records: Array<{ key: string; code: string; reason: string | null }>) =>
      Object.fromEntries(records.map((r) => [r.key, `${r.code}: ${r.reason}`]));
    expect(reasons(await handle.query(msg.adjudicationsQuery))).toEqual({
      taken: 'TEAM_TASK_HUMAN_INTERRUPTED: interrupted by alice',
      anonymous: 'TEAM_TASK_HUMAN_INTERRUPTED: interrupted by an operator',
    });

    const result = await handle.result();
    expect(result).toMatchObject({ status: 'budget_stopped', budgetReason: 'max-wall-ms' });
    const expected = {
      taken: 'TEAM_TASK_HUMAN_INTERRUPTED: interrupted by alice',
      anonymous: 'TEAM_TASK_HUMAN_INTERRUPTED: interrupted by an operator',
      walled: 'TEAM_WALL_BUDGET_EXHAUSTED: wall-clock budget exhausted',
    };
    expect(reasons(result.adjudications)).toEqual(expected);
    // The task's last error, which status, queue and the report show, says the same.
    expect(Object.fromEntries(result.tasks.map((t) => [t.key, t.lastError]))).toEqual(expected);
  });

  it('ignores malformed signals: each is recorded as control:rejected, no workflow task fails, the run completes', async ({
    expect,
    onTestFinished,
  }) => {
    const gate = gateExecutor();
    const worker = await workerForTest({ executors: { gate: gate.executor } }, onTestFinished);
    const handle = await startRun(
      {
        name: 'takeover-malformed',
        lease,
        // Nothing here may need a human: if something did, close and say so rather than wait.
        awaitAdjudication: false,
        tasks: [
          { key: 'slow', executor: { kind: 'gate' } },
          { key: 'after', dependsOn: ['slow'], executor: { kind: 'noop' } },
        ],
      },
      worker.taskQueue,
    );
    await claimOf(handle, 'slow');
    const huge = 'x'.repeat(20_000);
    const bad: Array<[string, unknown]> = [
      ['interruptTask', { fencingToken: 1 }],
      ['interruptTask', { key: 42, fencingToken: 'one' }],
      ['interruptTask', { key: 'slow', fencingToken: 1, reason: huge }],
      ['interruptTask', { key: 'slow', fencingToken: 1, actor: huge }],
      ['interruptTask', 'slow'],
      ['interruptTask', null],
      ['abortRun', { requireAdjudication: 'yes' }],
      ['abortRun', { reason: huge }],
      ['abortRun', 12],
    ];
    for (const [name, payload] of bad) await handle.signal<[unknown]>(name, payload);
    await temporal(
      'workflow',
      'signal',
      '--workflow-id',
      handle.workflowId,
      '--name',
      'interruptTask',
      '--input',
      '"take it"',
    );
    await temporal('workflow', 'signal', '--workflow-id', handle.workflowId, '--name', 'interruptTask');
    await waitFor(
      'every bad signal to be recorded',
      async () => (await eventsOf(handle, 'control:rejected')).length === bad.length + 2,
    );
    gate.open();

    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    expect(result.tasks.map((t) => [t.key, t.attempts])).toEqual([
      ['slow', 1],
      ['after', 1],
    ]);
    const rejected = await eventsOf(handle, 'control:rejected');
    expect(rejected).toHaveLength(bad.length + 2);
    // Oversized values are refused as value_too_large (naming the field), the rest as invalid_request.
    expect(rejected.map((e) => e.reason).sort()).toEqual(
      [...Array(3).fill('value_too_large'), ...Array(bad.length - 1).fill('invalid_request')].sort(),
    );
    const history = await handle.fetchHistory();
    // A burst of signals may meet a workflow task's completion (the server's UNHANDLED_COMMAND): not a code failure.
    expect(workflowCodeFailures(history)).toEqual([]);
  });
});

describe('interrupt latency', () => {
  it('from sending interruptTask to the shell process group being gone', async ({ expect, onTestFinished }) => {
    const samples = 10;
    const worker = await workerForTest({}, onTestFinished);
    const dir = tempDir('latency');
    const tasks = Array.from({ length: samples }, (_, i) => shellHolder(`t${i}`, path.join(dir, `t${i}.pids`)));
    const handle = await startRun(
      { name: 'takeover-latency', teammates: 1, lease, awaitAdjudication: false, tasks },
      worker.taskQueue,
    );
    const latencies: number[] = [];
    for (let i = 0; i < samples; i++) {
      const pids = await pidsOf(path.join(dir, `t${i}.pids`));
      const claim = await claimOf(handle, `t${i}`);
      // Cancellation rides on the attempt's next heartbeat (one a second): spread the sends over
      // that cycle, or every sample would land at the same phase of it.
      await delay((i * 100) % 1_000);
      const sent = performance.now();
      const verdict = await handle.executeUpdate(msg.interruptTaskUpdate, {
        args: [{ key: claim.key, fencingToken: claim.fencingToken }],
      });
      expect(verdict.ok).toBe(true);
      await waitFor(`t${i}'s processes to be gone`, () => !pids.some(alive), 15_000, 20);
      latencies.push(performance.now() - sent);
    }
    const result = await handle.result();
    expect(result.stats.adjudication).toBe(samples);
    const sorted = [...latencies].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
    console.log(
      `interruptTask -> shell process group gone, ${samples} samples: p50 ${at(0.5).toFixed(0)} ms, p95 ${at(0.95).toFixed(0)} ms, ` +
        `min ${sorted[0].toFixed(0)} ms, max ${sorted[sorted.length - 1].toFixed(0)} ms`,
    );
    expect(at(0.95)).toBeLessThan(3_000);
  });
});
