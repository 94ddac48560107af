import { describe, expect, it } from 'vitest';
import { InFlightLimit } from '../../src/sdk/in-flight';

/** A call that finishes when the test says so. */
function held<T>(value: T) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { finish, call: () => done.then(() => value) };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("the gateway's requests to one run, a few at a time", () => {
  it('holds a fifth request to a run until one of four finishes, in order; another run is not held', async () => {
    const limit = new InFlightLimit(4);
    const far = Date.now() + 60_000;
    const calls = Array.from({ length: 6 }, (_, i) => held(i));
    const started: number[] = [];
    const answers = calls.map((c, i) =>
      limit.run('run-a', far, 'extendReservation', () => {
        started.push(i);
        return c.call();
      }),
    );
    const other = limit.run('run-b', far, 'sendMessage', async () => 'b');
    await tick();
    expect(started).toEqual([0, 1, 2, 3]);
    expect(limit.load('run-a')).toEqual({ running: 4, waiting: 2 });
    expect(await other).toBe('b');
    calls[2].finish();
    await tick();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    for (const c of calls) c.finish();
    expect(await Promise.all(answers)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(limit.load('run-a')).toEqual({ running: 0, waiting: 0 });
  });

  it('fails a request that gets no place before its deadline without sending it, and frees its place in line', async () => {
    const limit = new InFlightLimit(1);
    const first = held('first');
    const sent = limit.run('run-a', Date.now() + 60_000, 'extendReservation', first.call);
    let lateSent = false;
    const late = limit.run('run-a', Date.now() + 20, 'extendReservation', async () => {
      lateSent = true;
    });
    await expect(late).rejects.toThrow(/extendReservation: 1 requests of this worker were with the workflow/);
    expect(lateSent).toBe(false);
    expect(limit.load('run-a')).toEqual({ running: 1, waiting: 0 });
    first.finish();
    expect(await sent).toBe('first');
    expect(await limit.run('run-a', Date.now() + 1_000, 'sendMessage', async () => 'next')).toBe('next');
    expect(limit.load('run-a')).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses at once a request past the most that may wait, without sending it; the others keep their places', async () => {
    const limit = new InFlightLimit(1, 2);
    const far = Date.now() + 60_000;
    const first = held('first');
    const sent = [limit.run('run-a', far, 'addTasks', first.call)];
    sent.push(limit.run('run-a', far, 'addTasks', async () => 'second'));
    sent.push(limit.run('run-a', far, 'addTasks', async () => 'third'));
    let fourthSent = false;
    const fourth = limit.run('run-a', far, 'addTasks', async () => {
      fourthSent = true;
    });
    await expect(fourth).rejects.toThrow('addTasks: 2 requests of this worker wait for the workflow already');
    expect(fourthSent).toBe(false);
    first.finish();
    expect(await Promise.all(sent)).toEqual(['first', 'second', 'third']);
    expect(limit.load('run-a')).toEqual({ running: 0, waiting: 0 });
  });

  it('frees the place of a call that failed', async () => {
    const limit = new InFlightLimit(1);
    await expect(
      limit.run('run-a', Date.now() + 1_000, 'addTasks', async () => Promise.reject(new Error('refused'))),
    ).rejects.toThrow('refused');
    expect(await limit.run('run-a', Date.now() + 1_000, 'addTasks', async () => 'ok')).toBe('ok');
  });
});
