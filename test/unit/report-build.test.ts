import { describe, expect, it } from 'vitest';
import { buildReport, type ExecutionFacts, type FinalState } from '../../src/report/build';
import { defaultPayloadConverter } from '@temporalio/common';
import { msToTs } from '@temporalio/common/lib/time';
import { readHistories } from '../../src/report/history';
import type { AttemptEnd, HistoryAttempt, HistoryFacts } from '../../src/report/history-facts';
import type { ControlRecord } from '../../src/report/model';

const T0 = 1_000_000;

function attempt(
  key: string,
  token: number,
  at: number,
  end: (AttemptEnd & { at: number }) | null,
  extra: Partial<HistoryAttempt> = {},
): HistoryAttempt {
  return {
    input: {
      workflowId: 'run-1',
      taskKey: key,
      title: key,
      attempt: token,
      fencingToken: token,
      leaseId: `run-1/${key}/${token}`,
      holder: 'teammate-1',
      executor: { kind: 'shell' },
      dependencyOutputs: {},
    },
    runIndex: 0,
    scheduledEventId: token * 10,
    activityId: `${key}#${token}`,
    summary: `${key} · attempt ${token} · token ${token}`,
    scheduledAt: at,
    startedAt: at + 10,
    worker: 'worker-a',
    cancelRequestedAt: null,
    end,
    ...extra,
  };
}

const interrupt = (key: string, fencingToken: number, at: number, verdict: string | null): ControlRecord => ({
  at,
  via: 'update',
  name: 'interruptTask',
  actor: 'alice',
  identity: 'cli',
  key,
  fencingToken,
  summary: `interrupt ${key} (token ${fencingToken})`,
  verdict,
});

const execution = (workflowStatus = 'COMPLETED', pending: ExecutionFacts['pending'] = []): ExecutionFacts => ({
  workflowId: 'run-1',
  runIds: ['r1'],
  team: 'docs',
  taskQueue: 'q',
  workflowStatus,
  pending,
});

function facts(attempts: HistoryAttempt[], control: ControlRecord[] = []): HistoryFacts {
  return {
    plan: {
      name: 'docs',
      tasks: [
        { key: 'a', executor: { kind: 'noop' } },
        { key: 'b', executor: { kind: 'noop' } },
      ],
    },
    startedAt: T0,
    close: null,
    attempts,
    steps: [],
    stepsDropped: 0,
    control,
  };
}

const outcomes = (report: ReturnType<typeof buildReport>) =>
  report.tasks.flatMap((t) => t.attempts.map((a) => [a.activityId, a.outcome, a.detail]));

describe('the run report reads attempts the way the team rules settle them', () => {
  it('a heartbeat timeout is a lost lease, and the next token is its re-lease', () => {
    const report = buildReport(
      facts([
        attempt('a', 1, T0 + 100, { kind: 'timed-out', at: T0 + 3_000, timeoutType: 'HEARTBEAT', worker: 'worker-a' }),
        attempt('a', 2, T0 + 3_100, {
          kind: 'completed',
          at: T0 + 3_500,
          usage: { inputTokens: 10, outputTokens: 5, costUsd: 0.01 },
          worker: 'worker-b',
        }),
      ]),
      execution(),
      null,
      T0 + 4_000,
    );
    expect(outcomes(report)).toEqual([
      ['a#1', 'lease-expired', 'no heartbeat within the lease TTL'],
      ['a#2', 'succeeded', null],
    ]);
    expect(report.leases).toEqual([
      {
        at: T0 + 3_000,
        key: 'a',
        fencingToken: 1,
        leaseId: 'run-1/a/1',
        worker: 'worker-a',
        next: { fencingToken: 2, at: T0 + 3_100 },
      },
    ]);
    expect(report.tasks.find((t) => t.key === 'a')!.attempts[1].worker).toBe('worker-b');
  });

  it('a stop with an accepted interruption is an interruption, even when the attempt completed anyway', () => {
    const stopped = { cancelRequestedAt: T0 + 500 };
    const report = buildReport(
      facts(
        [
          attempt('a', 1, T0, { kind: 'cancelled', at: T0 + 600, usage: null, worker: 'worker-a' }, stopped),
          attempt('b', 1, T0, { kind: 'completed', at: T0 + 700, usage: null, worker: 'worker-a' }, stopped),
        ],
        [interrupt('a', 1, T0 + 450, 'ok'), interrupt('b', 1, T0 + 450, 'ok')],
      ),
      execution(),
      null,
      T0 + 1_000,
    );
    expect(outcomes(report)).toEqual([
      ['a#1', 'interrupted', 'by alice; it stopped'],
      ['b#1', 'interrupted', 'by alice; it completed anyway: evidence only'],
    ]);
  });

  it('a stop without an accepted interruption (an abort; a refused interrupt) is a cancellation', () => {
    const report = buildReport(
      facts(
        [
          attempt(
            'a',
            2,
            T0,
            { kind: 'cancelled', at: T0 + 600, usage: null, worker: 'w' },
            { cancelRequestedAt: T0 + 500 },
          ),
        ],
        [interrupt('a', 1, T0 + 400, 'refused: stale_attempt')],
      ),
      execution(),
      null,
      T0 + 1_000,
    );
    expect(outcomes(report)[0].slice(0, 2)).toEqual(['a#2', 'cancelled']);
  });

  it('a worker shutdown hands the attempt back: released, and re-leased', () => {
    const report = buildReport(
      facts([
        attempt('a', 1, T0, {
          kind: 'failed',
          at: T0 + 200,
          type: 'TeamWorkerShutdown',
          message: 'worker w is shutting down',
          usage: null,
          worker: 'w',
        }),
        attempt('a', 2, T0 + 300, {
          kind: 'failed',
          at: T0 + 400,
          type: 'ShellExit',
          message: 'exit 3',
          usage: null,
          worker: 'w',
        }),
      ]),
      execution(),
      null,
      T0 + 500,
    );
    expect(outcomes(report)).toEqual([
      ['a#1', 'released', 'worker w is shutting down'],
      ['a#2', 'failed', 'ShellExit: exit 3'],
    ]);
    expect(report.leases.map((l) => [l.fencingToken, l.next?.fencingToken])).toEqual([[1, 2]]);
  });

  it('an open attempt is running once a worker started it (from the pending activities), scheduled before', () => {
    const report = buildReport(
      facts([
        attempt('a', 1, T0, null, { startedAt: null, worker: null }),
        attempt('b', 1, T0, null, { startedAt: null, worker: null }),
      ]),
      execution('RUNNING', [{ activityId: 'a#1', startedAt: T0 + 50, worker: 'worker-a' }]),
      null,
      T0 + 500,
    );
    expect(outcomes(report).map(([id, outcome]) => [id, outcome])).toEqual([
      ['a#1', 'running'],
      ['b#1', 'scheduled'],
    ]);
    expect(report.tasks[0].attempts[0]).toMatchObject({ startedAt: T0 + 50, worker: 'worker-a' });
    expect(report.notes[0]).toContain('did not answer queries');
    expect(report.adjudications).toBeNull();
  });

  it('budget over time: an attempt counts when scheduled, its usage when it settles', () => {
    const report = buildReport(
      facts([
        attempt('a', 1, T0 + 100, {
          kind: 'completed',
          at: T0 + 200,
          usage: { inputTokens: 100, outputTokens: 50, costUsd: 0.1 },
          worker: 'w',
        }),
        attempt('b', 1, T0 + 100, {
          kind: 'failed',
          at: T0 + 300,
          type: null,
          message: 'x',
          usage: { inputTokens: 10, cacheTokens: 5, costUsd: 0.02 },
          worker: 'w',
        }),
      ]),
      execution(),
      null,
      T0 + 400,
    );
    expect(report.budget.points).toEqual([
      { at: T0, attempts: 0, tokens: 0, usd: 0 },
      { at: T0 + 100, attempts: 2, tokens: 0, usd: 0 },
      { at: T0 + 200, attempts: 2, tokens: 150, usd: 0.1 },
      { at: T0 + 300, attempts: 2, tokens: 165, usd: 0.12 },
    ]);
    expect(report.budget.used).toEqual({ attempts: 2, tokens: 165, usd: 0.12 });
  });

  it('takes task states, adjudications and budget totals from the final state when there is one', () => {
    const final: FinalState = {
      state: 'succeeded',
      stats: { total: 2, succeeded: 2, failed: 0, skipped: 0, adjudication: 0 },
      tasks: [
        {
          key: 'a',
          title: 'Task A',
          status: 'succeeded',
          attempts: 1,
          fencingToken: 1,
          dependsOn: [],
          holder: 'teammate-1',
          startedAt: T0,
          settledAt: T0 + 1,
          lastError: null,
          skipReason: null,
          parent: null,
          depth: 0,
          usage: { inputTokens: 0, outputTokens: 0, cacheTokens: 0, costUsd: 0 },
        },
      ],
      adjudications: [],
      budget: {
        limits: { maxTokens: 1_000 },
        used: { tasks: 7, tokens: 900, usd: 0, wallMs: 10 },
        reserved: { tokens: 0, usd: 0 },
        remaining: { tasks: null, tokens: 100, usd: null, wallMs: null },
        stopped: false,
        reason: null,
        usageUnknown: false,
      },
    };
    const report = buildReport(facts([]), execution(), final, T0 + 10);
    expect(report.state).toBe('succeeded');
    expect(report.tasks.map((t) => [t.key, t.title, t.status])).toEqual([
      ['a', 'Task A', 'succeeded'],
      ['b', 'b', null],
    ]);
    expect(report.budget).toMatchObject({ limits: { maxTokens: 1_000 }, used: { attempts: 7, tokens: 900, usd: 0 } });
    expect(report.adjudications).toEqual([]);
  });

  it('adds what the run charged its lost attempts, which no attempt reported, when the last lease expired', () => {
    const lost = { kind: 'timed-out' as const, at: T0 + 3_000, timeoutType: 'HEARTBEAT', worker: 'worker-a' };
    const done = (at: number, inputTokens: number, costUsd: number) => ({
      kind: 'completed' as const,
      at,
      usage: { inputTokens, outputTokens: 0, costUsd },
      worker: 'worker-b',
    });
    const history = facts([
      attempt('b', 1, T0 + 100, done(T0 + 200, 150, 0.1)),
      attempt('a', 1, T0 + 100, lost),
      attempt('a', 2, T0 + 3_100, done(T0 + 3_500, 15, 0.01)),
    ]);
    // The run charged a#1 what it held, 1,024 tokens and $0.50: its own figure is the reported usage and that.
    const used = { tasks: 3, tokens: 165 + 1_024, usd: 0.61, wallMs: 3_500 };
    const final: FinalState = {
      state: 'succeeded',
      stats: { total: 2, succeeded: 2, failed: 0, skipped: 0, adjudication: 0 },
      tasks: [],
      adjudications: [],
      budget: {
        limits: { maxTokens: 10_000 },
        used,
        reserved: { tokens: 0, usd: 0 },
        remaining: { tasks: null, tokens: 10_000 - used.tokens, usd: null, wallMs: null },
        stopped: false,
        reason: null,
        usageUnknown: false,
      },
    };
    const report = buildReport(history, execution(), final, T0 + 4_000);
    expect(report.budget.points).toEqual([
      { at: T0, attempts: 0, tokens: 0, usd: 0 },
      { at: T0 + 100, attempts: 2, tokens: 0, usd: 0 },
      { at: T0 + 200, attempts: 2, tokens: 150, usd: 0.1 },
      { at: T0 + 3_000, attempts: 2, tokens: 1_174, usd: 0.6 },
      { at: T0 + 3_100, attempts: 3, tokens: 1_174, usd: 0.6 },
      { at: T0 + 3_500, attempts: 3, tokens: 1_189, usd: 0.61 },
    ]);
    expect(report.notes).toContain(
      'The run charged 1,024 tokens and $0.50 beyond the usage its attempts reported: 1 lease(s) expired, and an ' +
        'attempt lost with its worker is charged what it held (docs/budgets.md). The budget chart ' +
        `adds it at ${new Date(T0 + 3_000).toISOString()}, so that it ends at the run's own figure.`,
    );
    // No lease lost, a team task: its child run's spend is charged when the child ends, in no attempt's report.
    const squad = { key: 'squad', executor: { kind: 'team', plan: { name: 's', tasks: [] } } };
    const teamRun = {
      ...facts(history.attempts.filter((a) => a.end?.kind !== 'timed-out')),
      plan: { name: 't', tasks: [squad] },
    };
    expect(buildReport(teamRun, execution(), final, T0 + 4_000).notes).toContain(
      'The run charged 1,024 tokens and $0.50 beyond the usage its attempts reported: a team task is charged its ' +
        "child run's spend when the child ends, which no attempt reports. The budget chart adds it at " +
        `${new Date(T0 + 4_000).toISOString()}, so that it ends at the run's own figure.`,
    );
    // Without a final state (a run that did not answer) the chart is the reported usage alone, and nothing is said.
    const bare = buildReport(history, execution('RUNNING'), null, T0 + 4_000);
    expect(bare.budget.points.at(-1)).toEqual({ at: T0 + 3_500, attempts: 3, tokens: 165, usd: 0.11 });
    expect(bare.notes.join(' ')).not.toContain('beyond the usage');
  });
});

describe('links an attempt printed', () => {
  it('reach the report only as plain http(s) URLs', () => {
    const input = {
      workflowId: 'w',
      taskKey: 'a',
      title: 'a',
      attempt: 1,
      fencingToken: 1,
      leaseId: 'l',
      holder: 'teammate-1',
      executor: { kind: 'shell' },
      dependencyOutputs: {},
    };
    const result = {
      workerIdentity: 'w1',
      logs: { stdout: 'hi\n', stderr: '', stdoutBytes: 3, stderrBytes: 0 },
      links: [
        { url: 'javascript:alert(1)', label: 'x' },
        { url: 'https://logs.example.test/a', label: 'full log' },
        { url: 'data:text/html,hi' },
      ],
    };
    const facts = readHistories([
      {
        events: [
          {
            eventId: 5,
            eventTime: msToTs(1_000),
            activityTaskScheduledEventAttributes: {
              activityId: 'a#1',
              input: { payloads: [defaultPayloadConverter.toPayload(input)] },
            },
          },
          {
            eventId: 7,
            eventTime: msToTs(2_000),
            activityTaskCompletedEventAttributes: {
              scheduledEventId: 5,
              result: { payloads: [defaultPayloadConverter.toPayload(result)] },
            },
          },
        ],
      } as never,
    ]);
    expect(facts.attempts[0].end).toMatchObject({
      kind: 'completed',
      logs: result.logs,
      links: [{ url: 'https://logs.example.test/a', label: 'full log' }],
    });
    expect(facts.attempts[0].scheduledEventId).toBe(5);
  });

  it("names a task's own requests (addTasks, sendMessage) as the task's, with its worker, not the worker alone", () => {
    const proof = { queue: 'worker-a/stop/q', nonce: 'n'.repeat(32) };
    const accepted = (eventId: number, name: string, args: object, identity: string) => ({
      eventId,
      eventTime: msToTs(1_000 + eventId),
      workflowExecutionUpdateAcceptedEventAttributes: {
        acceptedRequest: {
          meta: { identity },
          input: { name, args: { payloads: [defaultPayloadConverter.toPayload(args)] } },
        },
      },
    });
    const tasks = [
      { key: 'part-1', executor: { kind: 'noop' } },
      { key: 'part-2', executor: { kind: 'noop' } },
    ];
    const facts = readHistories([
      {
        events: [
          accepted(
            3,
            'addTasks',
            { tasks, parent: 'planner', fencingToken: 1, requestId: 'r', attempt: proof },
            '24629@vm',
          ),
          accepted(
            4,
            'sendMessage',
            { from: 'review', to: 'part-1', body: 'hi', fencingToken: 2, attempt: proof },
            '24629@vm',
          ),
          accepted(5, 'addTasks', { tasks, requestId: 'r2', actor: 'alice' }, 'cli@laptop'),
        ],
      } as never,
    ]);
    expect(facts.control.map((c) => [c.actor, c.identity, c.summary])).toEqual([
      ['task planner#1', '24629@vm', 'add 2 task(s): part-1, part-2'],
      ['task review#2', '24629@vm', 'message review → part-1'],
      ['alice', 'cli@laptop', 'add 2 task(s): part-1, part-2'],
    ]);
  });
});
