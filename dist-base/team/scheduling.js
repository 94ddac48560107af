"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ReadyQueue = void 0;
exports.scopesOverlap = scopesOverlap;
const scope_1 = require("../plan/scope");
const PRIORITY_ORDER = { high: 0, normal: 1, low: 2 };
/** A scope as validation normalised it; one from an older snapshot may not have been. */
const normalized = (scope) => {
    const check = (0, scope_1.normalizeScope)(scope);
    return check.ok ? check.scope : scope;
};
/**
 * Two scope lists overlap when any of theirs is the same resource, contains the other (`docs/` and `docs/api`), or is
 * the whole workspace.
 */
function scopesOverlap(a, b) {
    for (const x of a.map(normalized)) {
        for (const y of b.map(normalized)) {
            if ((0, scope_1.scopeOverlaps)(x, y))
                return true;
        }
    }
    return false;
}
/**
 * Ready tasks in the order they are claimed: priority, then plan order.
 * Holds plan indices; one sorted list per priority.
 */
class ReadyQueue {
    tasks;
    buckets = [[], [], []];
    constructor(tasks) {
        this.tasks = tasks;
    }
    add(index) {
        const bucket = this.buckets[PRIORITY_ORDER[this.tasks[index].priority]];
        let lo = 0;
        let hi = bucket.length;
        while (lo < hi) {
            const mid = (lo + hi) >> 1;
            if (bucket[mid] < index)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (bucket[lo] !== index)
            bucket.splice(lo, 0, index);
    }
    remove(index) {
        const bucket = this.buckets[PRIORITY_ORDER[this.tasks[index].priority]];
        const at = bucket.indexOf(index);
        if (at >= 0)
            bucket.splice(at, 1);
    }
    /** Plan indices in claim order; do not add or remove while iterating. */
    *inOrder() {
        for (const bucket of this.buckets) {
            for (let i = 0; i < bucket.length; i++)
                yield bucket[i];
        }
    }
    get size() {
        return this.buckets[0].length + this.buckets[1].length + this.buckets[2].length;
    }
}
exports.ReadyQueue = ReadyQueue;
