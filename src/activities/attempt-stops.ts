import { ApplicationFailure, Context } from '@temporalio/activity';
import type { AdoptAttemptInput, ConfirmAttemptRequest, RunTaskResult, StopActivities } from './interface';
import { ATTEMPT_GONE } from '../team/handover';
import { MAX_ANNOUNCED_PER_SIGNAL, type AttemptsRunning } from '../team/stop-channel';
import type { LiveAttempt } from './attempt-runner';

/** A running attempt as the registry holds it. */
interface Entry {
  stop: () => void;
  /** Present for attempts that can be handed over to their run's next run and adopted there. */
  live?: LiveAttempt;
  /** How long a handed-over attempt waits for its adopt before it is stopped. */
  keepMs: number;
  /** Its run is continuing as new: the next run adopts it (`expiry` stops it if nobody does). */
  handedOver: boolean;
  expiry?: NodeJS.Timeout;
}

/**
 * The attempts this worker process runs now, by lease id, each with the function that stops it
 * at once; and the name of the task queue only this process polls (its stop queue). A run that
 * stops one of them sends `stopAttempts` there (src/worker/stop-channel.ts), so an interrupt does
 * not wait for the attempt's next heartbeat.
 */
export class AttemptStops {
  private readonly running = new Map<string, Entry>();
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

  /**
   * Registers a running attempt; the returned function unregisters it, unless it was handed over
   * and waits for its adopt (then the adopt, or the expiry, ends it). `adoptable` attempts can be
   * handed over; `keepMs` bounds how long one waits for its adopt.
   */
  register(leaseId: string, stop: () => void, adoptable?: { live: LiveAttempt; keepMs: number }): () => void {
    const entry: Entry = { stop, live: adoptable?.live, keepMs: adoptable?.keepMs ?? 0, handedOver: false };
    this.running.set(leaseId, entry);
    return () => {
      if (this.running.get(leaseId) === entry && !entry.handedOver) this.running.delete(leaseId);
    };
  }

  /**
   * Their run is continuing as new: each attempt of `leaseIds` this process runs keeps running
   * for the next run's adopt, at most its `keepMs` (then it is stopped and forgotten, as a lost
   * lease). Returns how many it found.
   */
  handOver(leaseIds: ReadonlyArray<string>): number {
    let found = 0;
    for (const id of leaseIds) {
      const entry = this.running.get(id);
      if (!entry?.live) continue;
      found += 1;
      entry.handedOver = true;
      clearTimeout(entry.expiry);
      entry.expiry = setTimeout(() => {
        if (this.running.get(id) !== entry || !entry.handedOver) return;
        this.running.delete(id);
        entry.stop();
      }, entry.keepMs);
    }
    return found;
  }

  /** True while the attempt waits for its next run's adopt. */
  handedOver(leaseId: string): boolean {
    return this.running.get(leaseId)?.handedOver === true;
  }

  /**
   * The next run re-attaches to attempt `leaseId` (whether or not the hand-over reached this
   * process first); undefined when this process does not run it (restarted, stopped, gave up).
   */
  adopt(leaseId: string): LiveAttempt | undefined {
    const entry = this.running.get(leaseId);
    if (!entry?.live) return undefined;
    entry.handedOver = false;
    clearTimeout(entry.expiry);
    return entry.live;
  }

  /** An adopt is done with attempt `leaseId`: forgotten, unless it waits for a later run's adopt again. */
  release(leaseId: string, live: LiveAttempt): void {
    const entry = this.running.get(leaseId);
    if (entry?.live === live && !entry.handedOver) this.running.delete(leaseId);
  }

  /** Stops each attempt of `leaseIds` this process runs; returns how many it found. */
  stop(leaseIds: ReadonlyArray<string>): number {
    let stopped = 0;
    for (const id of leaseIds) {
      const entry = this.running.get(id);
      if (!entry) continue;
      this.running.delete(id);
      clearTimeout(entry.expiry);
      entry.stop();
      stopped += 1;
    }
    this.delivered += stopped;
    return stopped;
  }
}

/** How an adopted attempt is attended: the same code runTask attends it with (attempt-runner.ts). */
export type Adopting = (ctx: Context, live: LiveAttempt, input: AdoptAttemptInput) => Promise<RunTaskResult>;

/**
 * `confirm` answers for the worker's attempt gateway (without one nothing is confirmed); `adopting`
 * attends attempts a continued run adopts (without it adopts fail as lost leases).
 */
export function createStopActivities(
  stops: AttemptStops,
  options: { confirm?: (input: ConfirmAttemptRequest) => boolean; adopting?: Adopting } = {},
): StopActivities {
  const { confirm = () => false, adopting } = options;
  const leaseIdsOf = (input: { leaseIds?: unknown } | undefined): string[] =>
    Array.isArray(input?.leaseIds) ? input.leaseIds.filter((id): id is string => typeof id === 'string') : [];
  return {
    async confirmAttemptRequest(input) {
      return typeof input === 'object' && input !== null && confirm(input);
    },
    async stopAttempts(input) {
      return { stopped: stops.stop(leaseIdsOf(input)) };
    },
    async handOverAttempts(input) {
      return { handedOver: stops.handOver(leaseIdsOf(input)) };
    },
    async adoptAttempt(input) {
      const live = adopting ? stops.adopt(input.leaseId) : undefined;
      if (!live || !adopting || live.input.fencingToken !== input.fencingToken) {
        throw ApplicationFailure.create({
          type: ATTEMPT_GONE,
          message:
            `attempt ${input.taskKey}#${input.fencingToken} (lease ${input.leaseId}) is not running on this ` +
            `worker any more (it restarted, or the attempt was stopped or gave up waiting to be adopted)`,
          nonRetryable: true,
        });
      }
      return adopting(Context.current(), live, input);
    },
  };
}
