/**
 * The run's event log: sequence numbers, the bounded ring kept in the snapshot, and the `events`
 * page (shape declared in src/contract). Records what it is told; deciding what happened is not its job.
 */
import type { EventsPage, RunEvent } from '../contract';
import { jsonBytes } from '../plan/bytes';
import { RUN_LIMITS, clip } from './bounds';
import { extended } from '../objects';

export interface EventLogSnapshot {
  nextSeq: number;
  events: RunEvent[];
}

/**
 * The run's event log: every event gets the next sequence number; memory keeps the newest `capacity`, within
 * `maxBytes`.
 */
export class EventLog {
  private nextSeq: number;
  /** The ring: events[head..] are kept; those before `head` are dropped, and cut off only now and then. */
  private readonly events: RunEvent[];
  /** JSON size of each event, and the kept ones' sum: the ring is bounded in bytes as well as in count. */
  private readonly sizes: number[];
  private head = 0;
  private bytes = 0;

  constructor(
    snapshot: EventLogSnapshot = { nextSeq: 1, events: [] },
    private readonly capacity = 2_000,
    private readonly maxBytes: number = RUN_LIMITS.eventBytes,
  ) {
    this.nextSeq = snapshot.nextSeq;
    this.events = [...snapshot.events];
    this.sizes = this.events.map((e) => jsonBytes(e));
    for (const size of this.sizes) this.bytes += size;
  }

  record(type: string, at: number, fields: Record<string, unknown> = {}): RunEvent {
    const event: RunEvent = extended(fields, { seq: this.nextSeq++, type, at });
    // Text that came from outside (reasons, errors) is held in full where it belongs, clipped here: the ring is in the
    // snapshot.
    for (const field in event) {
      const value = event[field];
      if (typeof value === 'string' && value.length > RUN_LIMITS.eventTextChars)
        event[field] = clip(value, RUN_LIMITS.eventTextChars);
    }
    const size = jsonBytes(event);
    this.events.push(event);
    this.sizes.push(size);
    this.bytes += size;
    // The oldest go past the capacity, then while the kept ones are over the byte bound (the newest always stays).
    while (this.events.length - this.head > this.capacity) this.bytes -= this.sizes[this.head++];
    while (this.head < this.events.length - 1 && this.bytes > this.maxBytes) this.bytes -= this.sizes[this.head++];
    // Cut off in one go once as many are dropped as kept: a full ring costs O(1) per event, not a shift of them all.
    if (this.head >= this.capacity || this.head * 2 >= this.events.length) {
      this.events.splice(0, this.head);
      this.sizes.splice(0, this.head);
      this.head = 0;
    }
    return event;
  }

  /** Events with `seq > after`, oldest first; `nextSeq` is where to continue. */
  page(after = 0, limit = 200): EventsPage {
    // Sequence numbers ascend: the first one past `after` is found by bisection.
    let lo = this.head;
    let hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.events[mid].seq > after) hi = mid;
      else lo = mid + 1;
    }
    const events = this.events.slice(lo, lo + Math.max(0, limit));
    const nextSeq = events.length ? events[events.length - 1].seq : Math.max(after, this.nextSeq - 1);
    return { events, nextSeq };
  }

  snapshot(): EventLogSnapshot {
    return { nextSeq: this.nextSeq, events: this.events.slice(this.head) };
  }
}
