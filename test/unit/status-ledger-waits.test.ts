import { describe, expect, it } from 'vitest';
import { renderOverview } from '../../src/cli/render';
import type { PendingAttempt } from '../../src/client/run-health';
import { runOverview } from '../helpers/run-overview';

const overview = (attempts: PendingAttempt[]) => runOverview({ attempts });

const pending = (activityId: string, activityType: string, extra: Partial<PendingAttempt> = {}): PendingAttempt => ({
  activityId,
  activityType,
  state: 'started',
  taskQueue: 'q',
  scheduledAt: Date.now() - 3_000,
  pollers: null,
  tries: 1,
  lastFailure: null,
  describedAt: Date.now(),
  ...extra,
});

describe('teamrun status: what a run waits for from its ledger before its attempts start', () => {
  it('names a block asked for the attempts starting together, and a registration, with the last answer', () => {
    const lines = renderOverview(
      overview([
        pending('block-0b6c9d2e-1f7a-4c55-9a57-3c8e2a1d0f11:ledger-acquire', 'ledgerAcquire'),
        pending('1', 'ledgerRegister', { tries: 3, lastFailure: 'ledger x: no answer in 30 s' }),
        pending('a#1', 'runTask'),
      ]),
      null,
    )
      .split('\n')
      .filter((l) => l.startsWith('waiting'));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^waiting  attempts starting together: a block of the run's ledger slots, asked 3\.\ds ago$/,
    );
    expect(lines[1]).toMatch(
      /^waiting  the run's registration with its ledger \(no attempt starts before it\), asked 3\.\ds ago; try 3, the last answered: ledger x: no answer in 30 s$/,
    );
  });

  it('leaves a block ask no worker took to the "not started" line', () => {
    const text = renderOverview(
      overview([
        pending('block-0b6c9d2e-1f7a-4c55-9a57-3c8e2a1d0f11:ledger-acquire', 'ledgerAcquire', {
          state: 'scheduled',
          pollers: 0,
        }),
      ]),
      null,
    );
    expect(text).not.toMatch(/^waiting/m);
    expect(text).toMatch(/^not started  block-.*:ledger-acquire: scheduled .* no worker polls that queue/m);
  });

  it('names an attempt no worker took only once it waited a second (or nobody polls), counted to the description', () => {
    const describedAt = Date.now() - 5_000;
    const notStarted = (extra: Partial<PendingAttempt>) =>
      renderOverview(
        overview([pending('7', 'confirmAttemptRequest', { state: 'scheduled', describedAt, ...extra })]),
        null,
      )
        .split('\n')
        .filter((l) => l.startsWith('not started'));
    // On its way: a worker takes a confirmation in milliseconds.
    expect(notStarted({ scheduledAt: describedAt - 200, pollers: 1 })).toEqual([]);
    // Nobody polls its queue: said at once.
    expect(notStarted({ scheduledAt: describedAt - 200, pollers: 0 })).toEqual([
      'not started  7: scheduled 200ms ago on task queue "q", no worker polls that queue for activities',
    ]);
    // Polled and not taken for 3 s when described, printed 5 s later: 3 s, not 8.
    expect(notStarted({ scheduledAt: describedAt - 3_000, pollers: 1 })).toEqual([
      'not started  7: scheduled 3.0s ago on task queue "q", 1 worker(s) poll it, none has taken it yet',
    ]);
  });
});
