"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.EventLog = void 0;
const bytes_1 = require("../plan/bytes");
const bounds_1 = require("./bounds");
/**
 * The run's event log: every event gets the next sequence number; memory keeps the newest `capacity`, within
 * `maxBytes`.
 */
class EventLog {
    capacity;
    maxBytes;
    nextSeq;
    events;
    /** JSON size of each event, and their sum: the ring is bounded in bytes as well as in count. */
    sizes;
    bytes = 0;
    constructor(snapshot = { nextSeq: 1, events: [] }, capacity = 2_000, maxBytes = bounds_1.RUN_LIMITS.eventBytes) {
        this.capacity = capacity;
        this.maxBytes = maxBytes;
        this.nextSeq = snapshot.nextSeq;
        this.events = [...snapshot.events];
        this.sizes = this.events.map((e) => (0, bytes_1.jsonBytes)(e));
        for (const size of this.sizes)
            this.bytes += size;
    }
    record(type, at, fields = {}) {
        const event = { ...fields, seq: this.nextSeq++, type, at };
        // Text that came from outside (reasons, errors) is held in full where it belongs, clipped here: the ring is in the
        // snapshot.
        for (const [field, value] of Object.entries(event)) {
            if (typeof value === 'string' && value.length > bounds_1.RUN_LIMITS.eventTextChars)
                event[field] = (0, bounds_1.clip)(value, bounds_1.RUN_LIMITS.eventTextChars);
        }
        const size = (0, bytes_1.jsonBytes)(event);
        this.events.push(event);
        this.sizes.push(size);
        this.bytes += size;
        let drop = Math.max(0, this.events.length - this.capacity);
        let dropped = 0;
        for (let i = 0; i < drop; i++)
            dropped += this.sizes[i];
        while (drop < this.events.length - 1 && this.bytes - dropped > this.maxBytes)
            dropped += this.sizes[drop++];
        if (drop > 0) {
            this.events.splice(0, drop);
            this.sizes.splice(0, drop);
            this.bytes -= dropped;
        }
        return event;
    }
    /** Events with `seq > after`, oldest first; `nextSeq` is where to continue. */
    page(after = 0, limit = 200) {
        const start = this.events.findIndex((e) => e.seq > after);
        const events = start < 0 ? [] : this.events.slice(start, start + Math.max(0, limit));
        const nextSeq = events.length ? events[events.length - 1].seq : Math.max(after, this.nextSeq - 1);
        return { events, nextSeq };
    }
    snapshot() {
        return { nextSeq: this.nextSeq, events: [...this.events] };
    }
}
exports.EventLog = EventLog;
