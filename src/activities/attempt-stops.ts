import type { ConfirmAttemptRequest, StopActivities } from './interface';
import { MAX_ANNOUNCED_PER_SIGNAL, type AttemptsRunning } from '../team/stop-channel';

/**
 * The attempts this worker process runs now, by lease id, each with the function that stops it
 * at once; and the name of the task queue only this process polls (its stop queue). A run that
 * stops one of them sends `stopAttempts` there (src/worker/stop-channel.ts), so an interrupt does
 * not wait for the attempt's next heartbeat.
 */
export class AttemptStops {
  private readonly running = new Map<string, () => void>();
  private readonly unannounced = new Map<string, Array<{ key: string; fencingToken: number }>>();
  private flushing: NodeJS.Timeout | undefined;
  /** Stops delivered (attempts found and stopped), for the worker's own counters. */
  delivered = 0;

  /**
   * `signal` sends one announcement signal to a run. Announcements wait `batchMs` to share a
   * signal with the others for the same run: 1,000 attempts starting together on 4 workers cost
   * a handful of signals (and history events), not 1,000.
   */
  constructor(
    readonly queue: string,
    private readonly signal?: (workflowId: string, payload: AttemptsRunning) => Promise<unknown>,
    private readonly batchMs = 200,
  ) {}

  /** Tells run `workflowId` that its attempt `key`/`fencingToken` is reachable on this worker's stop queue. */
  announce(workflowId: string, key: string, fencingToken: number): void {
    if (!this.signal) return;
    let list = this.unannounced.get(workflowId);
    if (!list) this.unannounced.set(workflowId, (list = []));
    list.push({ key, fencingToken });
    this.flushing ??= setTimeout(() => this.flush(), this.batchMs);
  }

  private flush(): void {
    this.flushing = undefined;
    const batches = [...this.unannounced];
    this.unannounced.clear();
    for (const [workflowId, attempts] of batches) {
      for (let i = 0; i < attempts.length; i += MAX_ANNOUNCED_PER_SIGNAL) {
        const payload = { queue: this.queue, attempts: attempts.slice(i, i + MAX_ANNOUNCED_PER_SIGNAL) };
        // If it fails, the heartbeat response stays the way a stop reaches these attempts.
        this.signal!(workflowId, payload).catch(() => undefined);
      }
    }
  }

  /** Registers a running attempt; the returned function unregisters it. */
  register(leaseId: string, stop: () => void): () => void {
    this.running.set(leaseId, stop);
    return () => {
      if (this.running.get(leaseId) === stop) this.running.delete(leaseId);
    };
  }

  /** Stops each attempt of `leaseIds` this process runs; returns how many it found. */
  stop(leaseIds: ReadonlyArray<string>): number {
    let stopped = 0;
    for (const id of leaseIds) {
      const stop = this.running.get(id);
      if (!stop) continue;
      this.running.delete(id);
      stop();
      stopped += 1;
    }
    this.delivered += stopped;
    return stopped;
  }
}

/** `confirm` answers for the worker's attempt gateway; without one nothing is confirmed. */
export function createStopActivities(
  stops: AttemptStops,
  confirm: (input: ConfirmAttemptRequest) => boolean = () => false,
): StopActivities {
  return {
    async confirmAttemptRequest(input) {
      return typeof input === 'object' && input !== null && confirm(input);
    },
    async stopAttempts(input) {
      const leaseIds = Array.isArray(input?.leaseIds)
        ? input.leaseIds.filter((id): id is string => typeof id === 'string')
        : [];
      return { stopped: stops.stop(leaseIds) };
    },
  };
}
