"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Leases = void 0;
const interface_1 = require("../activities/interface");
const stop_channel_1 = require("./stop-channel");
class Leases {
    teammates;
    active = new Map();
    /** Teammate names holding an attempt (`teammate-<n>`): the holder is stored, never parsed back. */
    holders = new Set();
    cancels = [];
    /** Stopped attempts that announced a stop queue: each gets a stop there besides its cancellation. */
    stops = [];
    constructor(teammates) {
        this.teammates = teammates;
    }
    /**
     * An attempt a snapshot carried (`tasks[i].current`). One stopped while its run handed over is
     * stopped again here: the cancellation the old run queued did not travel in the snapshot.
     */
    restore(key, attempt) {
        this.active.set(key, attempt);
        this.holders.add(attempt.holder);
        if (attempt.stop)
            this.cancels.push({ key, fencingToken: attempt.fencingToken });
    }
    get size() {
        return this.active.size;
    }
    get(key) {
        return this.active.get(key);
    }
    keys() {
        return this.active.keys();
    }
    values() {
        return this.active.values();
    }
    /** Leases `task` to the first free teammate: the next attempt, with the next fencing token. */
    open(task, workflowId, reservation, now) {
        let slot = 1;
        while (this.holders.has(`teammate-${slot}`) && slot < this.teammates)
            slot += 1;
        task.attempts += 1;
        task.fencingToken += 1;
        const fencingToken = task.fencingToken;
        const attempt = {
            attempt: task.attempts,
            fencingToken,
            leaseId: (0, interface_1.leaseIdOf)(workflowId, task.key, fencingToken),
            holder: `teammate-${slot}`,
            activityId: (0, interface_1.attemptActivityId)(task.key, fencingToken),
            startedAt: now,
            workerIdentity: null,
            reservation,
            stop: null,
        };
        task.current = attempt;
        task.holder = attempt.holder;
        this.active.set(task.key, attempt);
        this.holders.add(attempt.holder);
        return attempt;
    }
    /** The attempt ended: its task and its teammate are free. */
    close(task, attempt) {
        task.current = null;
        this.active.delete(task.key);
        this.holders.delete(attempt.holder);
    }
    /** Marks the attempt stopped and queues its cancellation. */
    stop(key, attempt, stop) {
        attempt.stop = stop;
        this.cancels.push({ key, fencingToken: attempt.fencingToken });
    }
    /** Stops every attempt not stopped already; returns how many it stopped. */
    stopAll(stop) {
        let stopped = 0;
        for (const [key, attempt] of this.active) {
            if (attempt.stop)
                continue;
            this.stop(key, attempt, stop);
            stopped += 1;
        }
        return stopped;
    }
    /** Attempts the workflow must cancel now (interrupted, aborted, out of wall clock). */
    drainCancellations() {
        const cancels = this.cancels.splice(0);
        for (const { key } of cancels) {
            const attempt = this.active.get(key);
            if (attempt?.stopQueue)
                this.stops.push({ queue: attempt.stopQueue, leaseId: attempt.leaseId });
        }
        return cancels;
    }
    /** Stops the workflow must send now, one per worker stop queue (after `drainCancellations`). */
    drainStops() {
        return (0, stop_channel_1.stopsByQueue)(this.stops.splice(0));
    }
    /**
     * Running attempts say which worker queue reaches them. Anything but the live attempt of a task
     * is ignored; an attempt already stopped gets its stop at once. Returns how many it applied to
     * and whether a stop was queued.
     */
    announce(payload) {
        let applied = 0;
        let stopsQueued = 0;
        for (const announcement of (0, stop_channel_1.parseAnnouncements)(payload)) {
            const attempt = this.active.get(announcement.key);
            if (!attempt || attempt.fencingToken !== announcement.fencingToken || attempt.stopQueue)
                continue;
            attempt.stopQueue = announcement.queue;
            applied += 1;
            if (attempt.stop) {
                this.stops.push({ queue: attempt.stopQueue, leaseId: attempt.leaseId });
                stopsQueued += 1;
            }
        }
        return { applied, stopsQueued };
    }
    /**
     * Attempts holding a lease now. Which worker runs one is not known here until it ends (it
     * travels in heartbeats and results); `temporal workflow describe` shows it meanwhile.
     */
    claimsView() {
        return [...this.active.entries()].map(([key, a]) => ({
            key,
            holder: a.holder,
            leaseId: a.leaseId,
            fencingToken: a.fencingToken,
            attempt: a.attempt,
            activityId: a.activityId,
            startedAt: a.startedAt,
            interrupted: a.stop?.kind === 'interrupt',
            interruption: a.stop?.kind === 'interrupt' ? a.stop.interruption : null,
        }));
    }
}
exports.Leases = Leases;
