/**
 * The run's event log: sequence numbers, the bounded ring kept in the snapshot, and the `events`
 * page (shape declared in src/contract). Records what it is told; deciding what happened is not its job.
 */
import type { EventsPage, RunEvent } from '../contract';
import { jsonBytes } from '../plan/bytes';
import { RUN_LIMITS, clip } from './bounds';

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
  private readonly events: RunEvent[];
  /** JSON size of each event, and their sum: the ring is bounded in bytes as well as in count. */
  private readonly sizes: number[];
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
    const event: RunEvent = { ...fields, seq: this.nextSeq++, type, at };
    // Text that came from outside (reasons, errors) is held in full where it belongs, clipped here: the ring is in the
    // snapshot.
    for (const [field, value] of Object.entries(event)) {
      if (typeof value === 'string' && value.length > RUN_LIMITS.eventTextChars)
        event[field] = clip(value, RUN_LIMITS.eventTextChars);
    }
    const size = jsonBytes(event);
    this.events.push(event);
    this.sizes.push(size);
    this.bytes += size;
    let drop = Math.max(0, this.events.length - this.capacity);
    let dropped = 0;
    for (let i = 0; i < drop; i++) dropped += this.sizes[i];
    while (drop < this.events.length - 1 && this.bytes - dropped > this.maxBytes) dropped += this.sizes[drop++];
    if (drop > 0) {
      this.events.splice(0, drop);
      this.sizes.splice(0, drop);
      this.bytes -= dropped;
    }
    return event;
  }

  /** Events with `seq > after`, oldest first; `nextSeq` is where to continue. */
  page(after = 0, limit = 200): EventsPage {
    const start = this.events.findIndex((e) => e.seq > after);
    const events = start < 0 ? [] : this.events.slice(start, start + Math.max(0, limit));
    const nextSeq = events.length ? events[events.length - 1].seq : Math.max(after, this.nextSeq - 1);
    return { events, nextSeq };
  }

  snapshot(): EventLogSnapshot {
    return { nextSeq: this.nextSeq, events: [...this.events] };
  }
}
