/**
 * How many of this worker's updates are with one workflow (a run, a ledger) at once. Temporal lets a workflow have 10
 * updates in flight and answers the 11th `ResourceExhausted`, which the client retries with a backoff of its own: 20
 * teammates of one run asking for more at once (`teamrun reserve`, an agent's next model call) met 709-781 of them in
 * bench section 12, and 6-15 of 1,000 attempts waited past the gateway's 60 s for their verdict. Queued here instead,
 * they wait their turn in the order they came; four in flight keep two workers on one workflow within the server's 10.
 */
export const UPDATES_IN_FLIGHT = 4;
/**
 * How many calls may wait for one key: a worker's attempts (at most `worker.maxConcurrentAttempts`, a few requests
 * each) stay far below it; a task sending requests without end is refused at once past it, not queued without bound.
 */
export const WAITING_AT_MOST = 1_024;

interface Lane {
  running: number;
  waiting: Array<() => void>;
}

/** At most `max` calls in flight per key; the others wait, in order, until a place frees or their deadline passes. */
export class InFlightLimit {
  private readonly lanes = new Map<string, Lane>();

  constructor(
    private readonly max: number = UPDATES_IN_FLIGHT,
    private readonly maxWaiting: number = WAITING_AT_MOST,
  ) {}

  /** `call`'s answer once it had its place; rejects without calling it if no place freed before `deadline`. */
  async run<T>(key: string, deadline: number, what: string, call: () => Promise<T>): Promise<T> {
    let lane = this.lanes.get(key);
    if (!lane) this.lanes.set(key, (lane = { running: 0, waiting: [] }));
    if (lane.running < this.max) lane.running += 1;
    else await this.queue(lane, deadline, what);
    try {
      return await call();
    } finally {
      this.release(key, lane);
    }
  }

  /** Calls in flight and waiting for `key` (0 and 0 once the lane is gone). */
  load(key: string): { running: number; waiting: number } {
    const lane = this.lanes.get(key);
    return { running: lane?.running ?? 0, waiting: lane?.waiting.length ?? 0 };
  }

  /**
   * Resolves once a finishing call hands its place over (`running` unchanged), or rejects at `deadline`, or at once
   * when `maxWaiting` calls wait already.
   */
  private queue(lane: Lane, deadline: number, what: string): Promise<void> {
    return new Promise((resolve, reject) => {
      if (lane.waiting.length >= this.maxWaiting) {
        reject(new Error(`${what}: ${this.maxWaiting} requests of this worker wait for the workflow already`));
        return;
      }
      const turn = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(
        () => {
          lane.waiting.splice(lane.waiting.indexOf(turn), 1);
          reject(new Error(`${what}: ${this.max} requests of this worker were with the workflow until the deadline`));
        },
        Math.max(0, deadline - Date.now()),
      );
      lane.waiting.push(turn);
    });
  }

  private release(key: string, lane: Lane): void {
    const next = lane.waiting.shift();
    if (next) return next();
    lane.running -= 1;
    if (!lane.running) this.lanes.delete(key);
  }
}
