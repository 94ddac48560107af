import { describe, expect, it } from 'vitest';
import { validatePlan } from '../../src/plan/validate';
import { TeamRun } from '../../src/team/run';
import { codeOf } from '../helpers/team-run';

/** What the workflow checked already when linkRun reaches the rule: its worker confirmed this proof. */
const proof = { queue: 'worker-stop-queue', nonce: 'n'.repeat(24) };

function running() {
  const validation = validatePlan({
    name: 'coord',
    teammates: 2,
    governance: { operators: ['ops'] },
    tasks: [
      { key: 'coordinate', executor: { kind: 'noop' } },
      { key: 'other', executor: { kind: 'noop' } },
    ],
  });
  if (!validation.ok) throw new Error('plan');
  const run = TeamRun.start(validation.plan, 'wf-coord', 0);
  const [attempt] = run.claim(0);
  return { run, attempt };
}

describe("linkRun: a run an attempt started, aborted when the attempt ends (a coordinator's runs)", () => {
  it('takes only a proven request from the live attempt: no proof (an operator too), a stale token, an unknown task', () => {
    const { run, attempt } = running();
    const link = { key: 'coordinate', fencingToken: attempt.fencingToken, runId: 'team-a' };
    expect(codeOf(() => run.validateLinkRun({ ...link, actor: 'ops' }))).toBe('forbidden');
    expect(codeOf(() => run.validateLinkRun({ ...link, fencingToken: 9, attempt: proof }))).toBe('stale_attempt');
    expect(codeOf(() => run.validateLinkRun({ ...link, key: 'zz', attempt: proof }))).toBe('not_found');
    expect(codeOf(() => run.validateLinkRun({ ...link, attempt: proof }))).toBe('accepted');
  });

  it('records each link once, and queues one abort naming the task when the attempt ends, none before', () => {
    const { run, attempt } = running();
    const link = { key: 'coordinate', fencingToken: attempt.fencingToken, attempt: proof };
    expect(run.linkRun({ ...link, runId: 'team-a', actor: 'bot' }, 1)).toEqual({ ok: true, linked: 1 });
    expect(run.linkRun({ ...link, runId: 'team-b' }, 1)).toEqual({ ok: true, linked: 2 });
    expect(run.linkRun({ ...link, runId: 'team-a' }, 1)).toEqual({ ok: true, linked: 2, idempotent: true });
    expect(
      run
        .eventsView()
        .events.filter((e) => e.type === 'task:run-linked')
        .map((e) => e.runId),
    ).toEqual(['team-a', 'team-b']);
    expect(run.drainLinkEnds()).toEqual([]);
    run.settle('coordinate', attempt.fencingToken, { kind: 'failed', message: 'boom', nonRetryable: true }, 2);
    expect(run.drainLinkEnds()).toEqual([
      {
        runs: [
          { runId: 'team-a', actor: 'bot' },
          { runId: 'team-b', actor: null },
        ],
        abort: {
          code: 'TEAM_COORDINATOR_ENDED',
          reason: 'the coordinator task "coordinate" (fencing token 1) of run wf-coord failed',
          requestId: `coordinator-ended:${attempt.leaseId}`,
          requireAdjudication: false,
        },
      },
    ]);
    // Drained once; the attempt is gone, so no later link is taken for it.
    expect(run.drainLinkEnds()).toEqual([]);
    expect(codeOf(() => run.validateLinkRun({ ...link, runId: 'team-c' }))).toBe('stale_attempt');
  });

  it('an attempt that started nothing queues nothing', () => {
    const { run, attempt } = running();
    run.settle('coordinate', attempt.fencingToken, { kind: 'completed' }, 2);
    expect(run.drainLinkEnds()).toEqual([]);
  });
});
