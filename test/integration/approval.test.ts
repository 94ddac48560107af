import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { TeamPlanInput } from '../../src/plan/schema';
import * as msg from '../../src/workflows/messages';
import { teamrun } from '../cli/teamrun-cli';
import { waitFor } from '../helpers/env';
import { runForTest, workerForTest } from '../helpers/scenario';

function tmpDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-approval-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** build -> approve (a human gate) -> deploy, where deploy leaves a file behind when it runs. */
function gatedDeploy(name: string, dir: string, approval: Record<string, unknown> = {}): TeamPlanInput {
  return {
    name,
    teammates: 1,
    budget: { maxTasks: 10, maxTokens: 1_000 },
    governance: { operators: ['release-manager', 'dev'] },
    tasks: [
      { key: 'build', executor: { kind: 'noop' }, estimate: { tokens: 100 } },
      {
        key: 'approve',
        dependsOn: ['build'],
        executor: {
          kind: 'approval',
          prompt: 'Deploy build to production?',
          approvers: ['release-manager'],
          ...approval,
        },
      },
      {
        key: 'deploy',
        dependsOn: ['approve'],
        executor: { kind: 'shell', command: `touch ${dir}/deployed; echo '::teamrun-output::"deployed"'` },
        estimate: { tokens: 100 },
      },
    ],
  };
}

describe('approval tasks gate a deploy', () => {
  it('nothing runs until `teamrun adjudicate --accept` by an approver; while it waits no teammate or reservation is held', async () => {
    const worker = await workerForTest();
    const dir = tmpDir();
    const handle = await runForTest(gatedDeploy('approval-accept', dir), worker);

    const pending = await waitFor('the approval request', async () =>
      (await handle.query(msg.adjudicationsQuery)).find((a) => a.key === 'approve' && a.decision === null),
    );
    expect(pending).toEqual(
      expect.objectContaining({
        code: 'TEAM_TASK_APPROVAL_REQUIRED',
        holder: 'coordinator',
        reason: expect.stringContaining('Deploy build to production?'),
      }),
    );
    const status = await handle.query(msg.statusQuery);
    expect(status.state).toBe('awaiting_adjudication');
    expect(status.teammates).toEqual({ requested: 1, active: 0 });
    expect(status.executions).toBe(1);
    const budget = await handle.query(msg.budgetQuery);
    expect(budget.reserved).toEqual({ tokens: 0, usd: 0 });
    expect(budget.used.tasks).toBe(1);
    expect((await handle.query(msg.membersQuery)).map((m) => m.state)).toEqual(['idle']);
    const tasks = await handle.query(msg.tasksQuery);
    expect(tasks.map((t) => [t.key, t.status])).toEqual([
      ['build', 'succeeded'],
      ['approve', 'adjudication'],
      ['deploy', 'blocked'],
    ]);
    expect(existsSync(`${dir}/deployed`)).toBe(false);

    // The Web UI's current details say what waits and how to decide it.
    type Definition = { name: string; description?: string };
    const metadata = (await handle.query('__temporal_workflow_metadata')) as {
      currentDetails?: string;
      definition?: { queryDefinitions?: Definition[]; updateDefinitions?: Definition[] };
    };
    expect(metadata.currentDetails).toContain(`teamrun adjudicate ${handle.workflowId} approve --accept`);
    // The Queries tab lists members and messages, each with what it answers, and the mailbox updates.
    const described = (defs: Definition[] = []) => Object.fromEntries(defs.map((d) => [d.name, d.description ?? '']));
    expect(described(metadata.definition?.queryDefinitions)).toEqual(
      expect.objectContaining({
        members: expect.stringContaining('teammate slot'),
        messages: expect.stringContaining('{ to?, after?, limit? }'),
      }),
    );
    expect(described(metadata.definition?.updateDefinitions)).toEqual(
      expect.objectContaining({
        sendMessage: expect.stringContaining('coordinator'),
        readInbox: expect.stringContaining('fencingToken'),
      }),
    );

    // The cross-run queue lists it.
    const queue = await waitFor('the run in teamrun queue', async () => {
      const out = await teamrun(['queue', '--team', 'approval-accept']);
      return out.stdout.includes('TEAM_TASK_APPROVAL_REQUIRED') ? out : null;
    });
    expect(queue.stdout).toContain(handle.workflowId);

    // An operator who is not an approver may not decide it.
    const refused = await teamrun(['adjudicate', handle.workflowId, 'approve', '--accept', '--actor', 'dev']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('forbidden');
    expect(refused.stderr).toContain('approvers');
    expect(existsSync(`${dir}/deployed`)).toBe(false);

    const accepted = await teamrun([
      'adjudicate',
      handle.workflowId,
      'approve',
      '--accept',
      '--actor',
      'release-manager',
      '--result',
      '{"approvedBy":"release-manager"}',
    ]);
    expect(accepted.code, accepted.stderr).toBe(0);
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    expect(result.tasks.map((t) => [t.key, t.status, t.output])).toEqual([
      ['build', 'succeeded', undefined],
      ['approve', 'succeeded', { approvedBy: 'release-manager' }],
      ['deploy', 'succeeded', 'deployed'],
    ]);
    expect(result.executions).toBe(2);
    expect(existsSync(`${dir}/deployed`)).toBe(true);
  });

  it('a rejected approval skips the deploy', async () => {
    const worker = await workerForTest();
    const dir = tmpDir();
    const handle = await runForTest(gatedDeploy('approval-reject', dir), worker);
    await waitFor('the approval request', async () => (await handle.query(msg.statusQuery)).pendingAdjudications === 1);
    const outcome = await handle.executeUpdate(msg.adjudicateUpdate, {
      args: [
        {
          key: 'approve',
          decision: 'reject',
          decisionId: 'no-friday-deploys',
          actor: 'release-manager',
          reason: 'no deploys on Friday',
        },
      ],
    });
    expect(outcome.task.status).toBe('failed');
    const result = await handle.result();
    expect(result.status).toBe('failed');
    expect(result.tasks.find((t) => t.key === 'deploy')).toEqual(
      expect.objectContaining({ status: 'skipped', skipReason: 'dependency "approve" failed' }),
    );
    expect(existsSync(`${dir}/deployed`)).toBe(false);
  });

  it('nobody decides within timeoutMs: the approval is rejected by a workflow timer and the deploy skipped', async () => {
    const worker = await workerForTest();
    const dir = tmpDir();
    const handle = await runForTest(gatedDeploy('approval-timeout', dir, { timeoutMs: 1_500 }), worker);
    const result = await handle.result();
    expect(result.status).toBe('failed');
    expect(result.tasks.map((t) => [t.key, t.status])).toEqual([
      ['build', 'succeeded'],
      ['approve', 'failed'],
      ['deploy', 'skipped'],
    ]);
    const record = result.adjudications.find((a) => a.key === 'approve')!;
    expect(record.decision).toEqual(
      expect.objectContaining({
        decision: 'reject',
        decisionId: 'approval-timeout:approve:1',
        reason: 'no decision within 1500 ms',
      }),
    );
    expect(record.decision!.decidedAt - record.requestedAt).toBeGreaterThanOrEqual(1_500);
    expect(existsSync(`${dir}/deployed`)).toBe(false);
  });
  it('an abort while an approval waits closes the run at once: the approval is rejected on the abort`s behalf', async () => {
    const worker = await workerForTest();
    const dir = tmpDir();
    // An hour-long timer: the run must not wait for it.
    const handle = await runForTest(gatedDeploy('approval-abort', dir, { timeoutMs: 3_600_000 }), worker);
    await waitFor('the approval request', async () => (await handle.query(msg.statusQuery)).pendingAdjudications === 1);
    await handle.executeUpdate(msg.abortRunUpdate, { args: [{ actor: 'dev', reason: 'release cancelled' }] });
    const result = await handle.result();
    expect(result.status).toBe('aborted');
    expect(result.tasks.map((t) => [t.key, t.status])).toEqual([
      ['build', 'succeeded'],
      ['approve', 'failed'],
      ['deploy', 'skipped'],
    ]);
    expect(result.adjudications.find((a) => a.key === 'approve')!.decision).toEqual(
      expect.objectContaining({
        decision: 'reject',
        actor: 'dev',
        reason: expect.stringContaining('release cancelled'),
      }),
    );
    expect(existsSync(`${dir}/deployed`)).toBe(false);
  });
});
