import { describe, expect, it } from 'vitest';
import { expandRunTaskInput, leaseIdOf, type RunTaskInput } from '../../src/activities/interface';

const defaults = { heartbeatEveryMs: 10_000, announceAfterMs: 1_000 };

describe("an attempt's input", () => {
  it('takes the whole input of an attempt scheduled before compact inputs as it was', () => {
    const whole: RunTaskInput = {
      workflowId: 'run-1',
      taskKey: 'build',
      title: 'Build',
      attempt: 2,
      fencingToken: 3,
      leaseId: 'run-1/build/3',
      holder: 'teammate-1',
      executor: { kind: 'noop' },
      dependencyOutputs: {},
      heartbeatEveryMs: 5_000,
      announceAfterMs: 1_000,
    };
    expect(expandRunTaskInput(whole, 'ignored', defaults)).toBe(whole);
  });

  it('derives the run, the lease id and the defaults a compact input leaves out', () => {
    expect(
      expandRunTaskInput(
        { taskKey: 'build', attempt: 1, fencingToken: 4, holder: 'teammate-2', executor: { kind: 'noop' } },
        'run-1',
        defaults,
      ),
    ).toEqual({
      workflowId: 'run-1',
      taskKey: 'build',
      title: 'build',
      attempt: 1,
      fencingToken: 4,
      leaseId: leaseIdOf('run-1', 'build', 4),
      holder: 'teammate-2',
      executor: { kind: 'noop' },
      dependencyOutputs: {},
      heartbeatEveryMs: 10_000,
      announceAfterMs: 1_000,
    });
    expect(leaseIdOf('run-1', 'build', 4)).toBe('run-1/build/4');
  });

  it('keeps what a compact input does carry', () => {
    const input = expandRunTaskInput(
      {
        taskKey: 'b',
        title: 'Second',
        attempt: 1,
        fencingToken: 1,
        holder: 'h',
        executor: { kind: 'noop' },
        dependencyOutputs: { a: 1 },
        heartbeatEveryMs: 2_000,
        allowSpawn: true,
      },
      'run-2',
      defaults,
    );
    expect(input).toMatchObject({ title: 'Second', dependencyOutputs: { a: 1 }, heartbeatEveryMs: 2_000 });
    expect(input.allowSpawn).toBe(true);
  });
});
