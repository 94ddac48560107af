import { RUN_LIMITS, clip } from './bounds';
import type { RunEvent } from './types';

export interface EventLogSnapshot {
  nextSeq: number;
  events: RunEvent[];
}

/** The run's event log: every event gets the next sequence number; memory keeps the newest `capacity`. */
export class EventLog {
  private nextSeq: number;
  private readonly events: RunEvent[];

  constructor(
    snapshot: EventLogSnapshot = { nextSeq: 1, events: [] },
    private readonly capacity = 2_000,
  ) {
    this.nextSeq = snapshot.nextSeq;
    this.events = [...snapshot.events];
  }

  record(type: string, at: number, fields: Record<string, unknown> = {}): RunEvent {
    const event: RunEvent = { ...fields, seq: this.nextSeq++, type, at };
    // Text that came from outside (reasons, errors) is held in full where it belongs, clipped here: the ring is in the snapshot.
    for (const [field, value] of Object.entries(event)) {
      if (typeof value === 'string' && value.length > RUN_LIMITS.eventTextChars) event[field] = clip(value, RUN_LIMITS.eventTextChars);
    }
    this.events.push(event);
    if (this.events.length > this.capacity) this.events.splice(0, this.events.length - this.capacity);
    return event;
  }

  /** Events with `seq > after`, oldest first; `nextSeq` is where to continue. */
  page(after = 0, limit = 200): { events: RunEvent[]; nextSeq: number } {
    const start = this.events.findIndex((e) => e.seq > after);
    const events = start < 0 ? [] : this.events.slice(start, start + Math.max(0, limit));
    const nextSeq = events.length ? events[events.length - 1].seq : Math.max(after, this.nextSeq - 1);
    return { events, nextSeq };
  }

  snapshot(): EventLogSnapshot {
    return { nextSeq: this.nextSeq, events: [...this.events] };
  }
}
