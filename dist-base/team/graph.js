"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.TaskGraph = void 0;
const bounds_1 = require("./bounds");
const scheduling_1 = require("./scheduling");
const types_1 = require("./types");
const views_1 = require("./views");
class TaskGraph {
    specs;
    tasks;
    events;
    /** Task keys in run order (the mailbox reads it live). */
    keys;
    ready;
    index = new Map();
    dependents;
    waitingOn;
    counts = new Map();
    treeCache = null;
    /**
     * Every ready task whose `readyAt` may lie ahead (made ready again, or ready when the run was
     * restored), pruned as it is asked about: the run asks on every step when it must wake next,
     * and must not walk the whole ready queue to learn it. Others became ready at a `now` passed.
     */
    delayed = new Set();
    /** `specs` is the plan's own list: tasks added while the run runs are appended to it. */
    constructor(specs, tasks, events) {
        this.specs = specs;
        this.tasks = tasks;
        this.events = events;
        this.ready = new scheduling_1.ReadyQueue(specs);
        this.dependents = specs.map(() => []);
        this.waitingOn = specs.map(() => 0);
        for (const status of types_1.TASK_STATUSES)
            this.counts.set(status, 0);
        specs.forEach((spec, i) => this.index.set(spec.key, i));
        this.keys = specs.map((spec) => spec.key);
        specs.forEach((spec, i) => {
            for (const dep of spec.dependsOn) {
                const d = this.index.get(dep);
                if (d === undefined)
                    continue;
                this.dependents[d].push(i);
                if (tasks[d].status !== 'succeeded')
                    this.waitingOn[i] += 1;
            }
        });
        tasks.forEach((task, i) => {
            this.counts.set(task.status, (this.counts.get(task.status) ?? 0) + 1);
            if (task.status === 'ready') {
                this.ready.add(i);
                this.delayed.add(i);
            }
        });
    }
    indexOf(key) {
        return this.index.get(key);
    }
    has(key) {
        return this.index.has(key);
    }
    get size() {
        return this.tasks.length;
    }
    count(status) {
        return this.counts.get(status) ?? 0;
    }
    isSettled(i) {
        return ['succeeded', 'failed', 'skipped'].includes(this.tasks[i].status);
    }
    setStatus(task, status) {
        this.counts.set(task.status, (this.counts.get(task.status) ?? 0) - 1);
        this.counts.set(status, (this.counts.get(status) ?? 0) + 1);
        task.status = status;
    }
    /** Back in the ready queue, claimable from `readyAt`. */
    makeReady(i, readyAt) {
        this.tasks[i].readyAt = readyAt;
        this.setStatus(this.tasks[i], 'ready');
        this.ready.add(i);
        this.delayed.add(i);
    }
    /** True when a ready task waits out its retry backoff past `now`. */
    backingOff(now) {
        return this.nextReadyAt(now) !== null;
    }
    /** The earliest `readyAt` after `now` among ready tasks, if any. */
    nextReadyAt(now) {
        let wake = null;
        for (const i of this.delayed) {
            const task = this.tasks[i];
            // Claimed, settled or past its backoff: it wakes nothing again unless made ready again.
            if (task.status !== 'ready' || task.readyAt <= now) {
                this.delayed.delete(i);
                continue;
            }
            if (wake === null || task.readyAt < wake)
                wake = task.readyAt;
        }
        return wake;
    }
    /** What task `i` receives from its dependencies; own properties even for a key such as "__proto__". */
    dependencyOutputs(i) {
        return Object.fromEntries(this.specs[i].dependsOn.map((dep) => [dep, this.tasks[this.index.get(dep)].output ?? null]));
    }
    /**
     * Task `i` succeeded with `output`: dependents whose last dependency it was become ready, or
     * are skipped with `notTakingWork` when the run takes no work.
     */
    succeed(i, output, now, notTakingWork) {
        const task = this.tasks[i];
        task.output = output;
        task.lastError = null;
        task.settledAt = now;
        this.setStatus(task, 'succeeded');
        for (const d of this.dependents[i]) {
            this.waitingOn[d] -= 1;
            const dependent = this.tasks[d];
            if (this.waitingOn[d] === 0 && dependent.status === 'blocked') {
                dependent.readyAt = now;
                this.setStatus(dependent, 'ready');
                if (notTakingWork === null)
                    this.ready.add(d);
                else
                    this.skipTask(d, notTakingWork, now);
            }
        }
    }
    /** Task `i` failed for good: recorded, and everything that depends on it is skipped. */
    fail(i, reported, now, fencingToken) {
        const task = this.tasks[i];
        const message = (0, bounds_1.clip)(reported, bounds_1.RUN_LIMITS.errorChars);
        task.lastError = message;
        task.settledAt = now;
        this.setStatus(task, 'failed');
        this.events.record('task:failed', now, { key: task.key, fencingToken, error: message, willRetry: false });
        this.skipDependents(i, `dependency "${task.key}" failed`, now);
    }
    skipTask(i, reason, now) {
        const task = this.tasks[i];
        if (task.status === 'ready')
            this.ready.remove(i);
        task.skipReason = reason;
        task.settledAt = now;
        this.setStatus(task, 'skipped');
        this.events.record('task:skipped', now, { key: task.key, reason });
    }
    /** Every task that has not started (blocked or ready) is skipped. */
    skipNotStarted(reason, now) {
        this.tasks.forEach((task, i) => {
            if (task.status === 'blocked' || task.status === 'ready')
                this.skipTask(i, reason, now);
        });
    }
    skipDependents(i, reason, now) {
        const stack = [...this.dependents[i]];
        while (stack.length) {
            const d = stack.pop();
            const status = this.tasks[d].status;
            if (status !== 'blocked' && status !== 'ready')
                continue;
            this.skipTask(d, reason, now);
            stack.push(...this.dependents[d]);
        }
    }
    /** Appends checked tasks, blocked, wired to their dependencies; returns the index of the first. */
    append(specs, states) {
        const from = this.tasks.length;
        specs.forEach((spec, n) => {
            const i = this.specs.push(spec) - 1;
            this.tasks.push(states[n]);
            this.counts.set('blocked', (this.counts.get('blocked') ?? 0) + 1);
            this.index.set(spec.key, i);
            this.keys.push(spec.key);
            this.dependents.push([]);
            this.waitingOn.push(0);
        });
        for (let i = from; i < this.tasks.length; i++) {
            for (const dep of this.specs[i].dependsOn) {
                const d = this.index.get(dep);
                this.dependents[d].push(i);
                if (this.tasks[d].status !== 'succeeded')
                    this.waitingOn[i] += 1;
            }
        }
        return from;
    }
    /**
     * Tasks appended from `from` on become ready, or are skipped when a dependency can never
     * succeed. In run order, so one depending on an earlier new one that is skipped is skipped too.
     */
    admitAppended(from, now) {
        for (let i = from; i < this.tasks.length; i++) {
            const failedDep = this.specs[i].dependsOn.find((dep) => ['failed', 'skipped'].includes(this.statusOf(dep)));
            if (failedDep !== undefined)
                this.skipTask(i, `dependency "${failedDep}" ${this.statusOf(failedDep)}`, now);
            else if (this.waitingOn[i] === 0) {
                this.setStatus(this.tasks[i], 'ready');
                this.ready.add(i);
            }
        }
    }
    statusOf(key) {
        return this.tasks[this.index.get(key)].status;
    }
    // ---- views ------------------------------------------------------------------------------
    view(i) {
        return (0, views_1.taskView)(this.tasks[i], this.specs[i]);
    }
    stats() {
        const n = (s) => this.count(s);
        return {
            total: this.tasks.length,
            succeeded: n('succeeded'),
            failed: n('failed'),
            skipped: n('skipped'),
            adjudication: n('adjudication'),
            running: n('leased'),
            pending: n('blocked') + n('ready'),
        };
    }
    tasksView(query = {}) {
        const offset = Math.max(0, query.offset ?? 0);
        const limit = Math.max(0, query.limit ?? 1_000);
        const out = [];
        let skipped = 0;
        for (let i = 0; i < this.tasks.length && out.length < limit; i++) {
            if (query.status && this.tasks[i].status !== query.status)
                continue;
            if (skipped++ < offset)
                continue;
            out.push(this.view(i));
        }
        return out;
    }
    /**
     * Parent -> children of added tasks, parents in run order (at most `maxParents`, each with at most `maxChildren`).
     */
    spawnTree(maxParents = 20, maxChildren = 20) {
        // The tree changes only when tasks are added: the Web UI's details ask on every step.
        const cacheKey = `${this.tasks.length}/${maxParents}/${maxChildren}`;
        if (this.treeCache?.key === cacheKey)
            return this.treeCache.tree;
        const byParent = new Map();
        for (const task of this.tasks) {
            if (task.parent === undefined)
                continue;
            let entry = byParent.get(task.parent);
            if (!entry) {
                if (byParent.size >= maxParents)
                    continue;
                entry = { parent: task.parent, children: [], total: 0 };
                byParent.set(task.parent, entry);
            }
            entry.total += 1;
            if (entry.children.length < maxChildren)
                entry.children.push(task.key);
        }
        this.treeCache = { key: cacheKey, tree: [...byParent.values()] };
        return this.treeCache.tree;
    }
}
exports.TaskGraph = TaskGraph;
