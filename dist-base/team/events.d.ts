/**
 * The run's event log: sequence numbers, the bounded ring kept in the snapshot, and the `events`
 * page (shape declared in src/contract). Records what it is told; deciding what happened is not its job.
 */
import type { EventsPage, RunEvent } from '../contract';
export interface EventLogSnapshot {
    nextSeq: number;
    events: RunEvent[];
}
/**
 * The run's event log: every event gets the next sequence number; memory keeps the newest `capacity`, within
 * `maxBytes`.
 */
export declare class EventLog {
    private readonly capacity;
    private readonly maxBytes;
    private nextSeq;
    private readonly events;
    /** JSON size of each event, and their sum: the ring is bounded in bytes as well as in count. */
    private readonly sizes;
    private bytes;
    constructor(snapshot?: EventLogSnapshot, capacity?: number, maxBytes?: number);
    record(type: string, at: number, fields?: Record<string, unknown>): RunEvent;
    /** Events with `seq > after`, oldest first; `nextSeq` is where to continue. */
    page(after?: number, limit?: number): EventsPage;
    snapshot(): EventLogSnapshot;
}
