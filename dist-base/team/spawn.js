"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Spawns = exports.emptySpawns = exports.ADDED_EVENT_KEYS = exports.SPAWN_REQUESTS_KEPT = exports.SPAWN_LIMIT_CODE = void 0;
const add_tasks_1 = require("../plan/requests/add-tasks");
/** Code of the adjudication a task goes to when what it adds on settling is over a limit. */
exports.SPAWN_LIMIT_CODE = 'TEAM_TASK_SPAWN_LIMIT_EXCEEDED';
/** Requests remembered for idempotency (newest kept); an older requestId sent again is checked anew. */
exports.SPAWN_REQUESTS_KEPT = 256;
/** Keys listed in one `task:added` event; `count` says how many were added. */
exports.ADDED_EVENT_KEYS = 20;
const emptySpawns = () => ({ added: 0, requests: [] });
exports.emptySpawns = emptySpawns;
/** The run's record of added work: how much, and which requests it already took (by requestId). */
class Spawns {
    added;
    requests;
    byId = new Map();
    constructor(snapshot = (0, exports.emptySpawns)()) {
        this.added = snapshot.added;
        this.requests = [...snapshot.requests];
        for (const record of this.requests)
            this.byId.set(record[0], record);
    }
    get count() {
        return this.added;
    }
    /** The run indices a request added, if it was accepted before. */
    earlier(requestId) {
        const record = this.byId.get(requestId);
        return record ? { from: record[1], count: record[2] } : null;
    }
    /**
     * The limit `count` new tasks at `depth` would pass, with the reason a person reads; null when
     * they fit. Depth is the parent chain's length from a plan task (plan tasks are depth 0).
     */
    overLimit(budget, count, depth) {
        const maxSpawned = budget.maxSpawnedTasks;
        if (maxSpawned !== undefined && this.added + count > maxSpawned) {
            return {
                limit: 'max-spawned-tasks',
                message: `adding ${count} task(s) to the ${this.added} already added would pass budget.maxSpawnedTasks ` +
                    `(${maxSpawned})`,
            };
        }
        const maxDepth = Math.min(budget.maxDepth ?? add_tasks_1.ADD_TASKS_LIMITS.maxDepth, add_tasks_1.ADD_TASKS_LIMITS.maxDepth);
        if (depth > maxDepth) {
            return {
                limit: 'max-depth',
                message: `the new tasks would be at depth ${depth}, past budget.maxDepth (${maxDepth})`,
            };
        }
        return null;
    }
    /** Records an accepted request whose `count` tasks start at run index `from`. */
    record(requestId, from, count) {
        const record = [requestId, from, count];
        this.added += count;
        this.requests.push(record);
        this.byId.set(requestId, record);
        while (this.requests.length > exports.SPAWN_REQUESTS_KEPT)
            this.byId.delete(this.requests.shift()[0]);
    }
    snapshot() {
        return { added: this.added, requests: this.requests.map((r) => [...r]) };
    }
}
exports.Spawns = Spawns;
