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
    expect(expandRunTaskInput(whole, { workflowId: 'other', activityId: 'x#9' }, defaults)).toBe(whole);
  });

  it('derives the run, the task, the token, the lease id and the defaults a compact input leaves out', () => {
    expect(
      expandRunTaskInput(
        { holder: 'teammate-2', executor: { kind: 'noop' } },
        { workflowId: 'run-1', activityId: 'a#b#4' },
        defaults,
      ),
    ).toEqual({
      workflowId: 'run-1',
      taskKey: 'a#b',
      title: 'a#b',
      attempt: 4,
      fencingToken: 4,
      leaseId: leaseIdOf('run-1', 'a#b', 4),
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
        fencingToken: 3,
        attempt: 2,
        title: 'Second',
        holder: 'h',
        executor: { kind: 'noop' },
        dependencyOutputs: { a: 1 },
        heartbeatEveryMs: 2_000,
        allowSpawn: true,
      },
      { workflowId: 'run-2', activityId: 'custom-id' },
      defaults,
    );
    expect(input).toMatchObject({
      taskKey: 'b',
      fencingToken: 3,
      attempt: 2,
      leaseId: 'run-2/b/3',
      title: 'Second',
      dependencyOutputs: { a: 1 },
      heartbeatEveryMs: 2_000,
      allowSpawn: true,
    });
  });

  it('refuses a compact input whose activity id names no task and token', () => {
    expect(() =>
      expandRunTaskInput(
        { holder: 'h', executor: { kind: 'noop' } },
        { workflowId: 'r', activityId: 'plain' },
        defaults,
      ),
    ).toThrow(/activity id "plain" is not <task key>#<fencing token>/);
  });
});
