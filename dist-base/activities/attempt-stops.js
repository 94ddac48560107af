"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.AttemptStops = void 0;
exports.createStopActivities = createStopActivities;
const activity_1 = require("@temporalio/activity");
const handover_1 = require("../team/handover");
const stop_channel_1 = require("../team/stop-channel");
/**
 * The attempts this worker process runs now, by lease id, each with the function that stops it
 * at once; and the name of the task queue only this process polls (its stop queue). A run that
 * stops one of them sends `stopAttempts` there (src/worker/stop-channel.ts), so an interrupt does
 * not wait for the attempt's next heartbeat.
 */
class AttemptStops {
    queue;
    signal;
    batchMs;
    running = new Map();
    unannounced = new Map();
    flushing;
    /** Stops delivered (attempts found and stopped), for the worker's own counters. */
    delivered = 0;
    /**
     * `signal` sends one announcement signal to a run. Announcements wait `batchMs` to share a
     * signal with the others for the same run: 1,000 attempts starting together on 4 workers cost
     * a handful of signals (and history events), not 1,000.
     */
    constructor(queue, signal, batchMs = 200) {
        this.queue = queue;
        this.signal = signal;
        this.batchMs = batchMs;
    }
    /** Tells run `workflowId` that its attempt `key`/`fencingToken` is reachable on this worker's stop queue. */
    announce(workflowId, key, fencingToken) {
        if (!this.signal)
            return;
        let list = this.unannounced.get(workflowId);
        if (!list)
            this.unannounced.set(workflowId, (list = []));
        list.push({ key, fencingToken });
        this.flushing ??= setTimeout(() => this.flush(), this.batchMs);
    }
    flush() {
        this.flushing = undefined;
        const batches = [...this.unannounced];
        this.unannounced.clear();
        for (const [workflowId, attempts] of batches) {
            for (let i = 0; i < attempts.length; i += stop_channel_1.MAX_ANNOUNCED_PER_SIGNAL) {
                const payload = { queue: this.queue, attempts: attempts.slice(i, i + stop_channel_1.MAX_ANNOUNCED_PER_SIGNAL) };
                // If it fails, the heartbeat response stays the way a stop reaches these attempts.
                this.signal(workflowId, payload).catch(() => undefined);
            }
        }
    }
    /**
     * Registers a running attempt; the returned function unregisters it, unless it was handed over
     * and waits for its adopt (then the adopt, or the expiry, ends it). `adoptable` attempts can be
     * handed over; `keepMs` bounds how long one waits for its adopt.
     */
    register(leaseId, stop, adoptable) {
        const entry = { stop, live: adoptable?.live, keepMs: adoptable?.keepMs ?? 0, handedOver: false };
        this.running.set(leaseId, entry);
        return () => {
            if (this.running.get(leaseId) === entry && !entry.handedOver)
                this.running.delete(leaseId);
        };
    }
    /**
     * Their run is continuing as new: each attempt of `leaseIds` this process runs keeps running
     * for the next run's adopt, at most its `keepMs` (then it is stopped and forgotten, as a lost
     * lease). Returns how many it found.
     */
    handOver(leaseIds) {
        let found = 0;
        for (const id of leaseIds) {
            const entry = this.running.get(id);
            if (!entry?.live)
                continue;
            found += 1;
            entry.handedOver = true;
            clearTimeout(entry.expiry);
            entry.expiry = setTimeout(() => {
                if (this.running.get(id) !== entry || !entry.handedOver)
                    return;
                this.running.delete(id);
                entry.stop();
            }, entry.keepMs);
        }
        return found;
    }
    /** True while the attempt waits for its next run's adopt. */
    handedOver(leaseId) {
        return this.running.get(leaseId)?.handedOver === true;
    }
    /**
     * The next run re-attaches to attempt `leaseId` (whether or not the hand-over reached this
     * process first); undefined when this process does not run it (restarted, stopped, gave up).
     */
    adopt(leaseId) {
        const entry = this.running.get(leaseId);
        if (!entry?.live)
            return undefined;
        entry.handedOver = false;
        clearTimeout(entry.expiry);
        return entry.live;
    }
    /** An adopt is done with attempt `leaseId`: forgotten, unless it waits for a later run's adopt again. */
    release(leaseId, live) {
        const entry = this.running.get(leaseId);
        if (entry?.live === live && !entry.handedOver)
            this.running.delete(leaseId);
    }
    /** Stops each attempt of `leaseIds` this process runs; returns how many it found. */
    stop(leaseIds) {
        let stopped = 0;
        for (const id of leaseIds) {
            const entry = this.running.get(id);
            if (!entry)
                continue;
            this.running.delete(id);
            clearTimeout(entry.expiry);
            entry.stop();
            stopped += 1;
        }
        this.delivered += stopped;
        return stopped;
    }
}
exports.AttemptStops = AttemptStops;
/**
 * `confirm` answers for the worker's attempt gateway (without one nothing is confirmed); `adopting`
 * attends attempts a continued run adopts (without it adopts fail as lost leases).
 */
function createStopActivities(stops, options = {}) {
    const { confirm = () => false, adopting } = options;
    const leaseIdsOf = (input) => Array.isArray(input?.leaseIds) ? input.leaseIds.filter((id) => typeof id === 'string') : [];
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
                throw activity_1.ApplicationFailure.create({
                    type: handover_1.ATTEMPT_GONE,
                    message: `attempt ${input.taskKey}#${input.fencingToken} (lease ${input.leaseId}) is not running on this ` +
                        `worker any more (it restarted, or the attempt was stopped or gave up waiting to be adopted)`,
                    nonRetryable: true,
                });
            }
            return adopting(activity_1.Context.current(), live, input);
        },
    };
}
