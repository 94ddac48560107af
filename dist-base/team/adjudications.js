"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Adjudications = void 0;
const bytes_1 = require("../plan/bytes");
const approval_1 = require("./approval");
const bounds_1 = require("./bounds");
class Adjudications {
    records;
    decisions;
    constructor(records, decisions) {
        this.records = records;
        // No prototype: a decisionId such as "constructor" must not look like an earlier decision.
        this.decisions = Object.assign(Object.create(null), decisions);
    }
    snapshotDecisions() {
        return this.decisions;
    }
    /** Queues a record; its reason is left out when pending records already hold their bound of text. */
    add(record) {
        if (record.reason !== null && this.pendingText() + record.reason.length > bounds_1.RUN_LIMITS.pendingTextChars) {
            const bound = bounds_1.RUN_LIMITS.pendingTextChars;
            record.reason = `(reason left out: pending adjudications hold ${bound} chars of text already)`;
        }
        this.records.push(record);
    }
    /** The record of `key` still waiting for a decision, if there is one. */
    pending(key) {
        const record = this.latest(key);
        return record?.decision ? undefined : record;
    }
    latest(key) {
        for (let r = this.records.length - 1; r >= 0; r--) {
            if (this.records[r].key === key)
                return this.records[r];
        }
        return undefined;
    }
    isDecided(decisionId) {
        return Object.hasOwn(this.decisions, decisionId);
    }
    /** The task an earlier decision decided. */
    decidedKey(decisionId) {
        return this.decisions[decisionId].task.key;
    }
    /**
     * Remembers a decision id with the key it decided, nothing more: the task holds its output,
     * and a value must be held once. The newest RUN_LIMITS.decisionIds are kept.
     */
    remember(decisionId, key) {
        const ids = Object.keys(this.decisions);
        const seq = ids.reduce((max, id) => Math.max(max, this.decisions[id].seq ?? 0), 0) + 1;
        this.decisions[decisionId] = { ok: true, task: { key }, seq };
        if (ids.length + 1 <= bounds_1.RUN_LIMITS.decisionIds)
            return;
        let oldest = decisionId;
        for (const id of ids)
            if ((this.decisions[id].seq ?? 0) < (this.decisions[oldest].seq ?? Infinity))
                oldest = id;
        delete this.decisions[oldest];
    }
    /**
     * A decided record keeps who decided what and its evidence (counted in the run's bound on
     * outputs); its reason is clipped to what a reader of old decisions needs.
     */
    clipDecided(record) {
        if (record.reason !== null)
            record.reason = (0, bounds_1.clip)(record.reason, bounds_1.RUN_LIMITS.decidedReasonChars);
    }
    /**
     * Keeps the newest decided records (RUN_LIMITS.decidedAdjudications) and every pending one; returns the result bytes
     * let go.
     */
    forgetOldDecided() {
        let decided = 0;
        let freed = 0;
        for (const r of this.records)
            if (r.decision)
                decided += 1;
        for (let r = 0; r < this.records.length && decided > bounds_1.RUN_LIMITS.decidedAdjudications;) {
            const record = this.records[r];
            if (!record.decision) {
                r += 1;
                continue;
            }
            freed += (0, bytes_1.jsonBytes)(record.result);
            this.records.splice(r, 1);
            decided -= 1;
        }
        return freed;
    }
    /** The earliest time a pending approval times out, if any does. */
    approvalDeadline(specOf) {
        let earliest = null;
        for (const record of this.records) {
            const spec = specOf(record.key);
            const at = spec === undefined ? null : (0, approval_1.approvalDeadline)(spec, record);
            if (at !== null && (earliest === null || at < earliest))
                earliest = at;
        }
        return earliest;
    }
    /** Characters of free text the pending records hold. */
    pendingText() {
        let chars = 0;
        for (const r of this.records) {
            if (!r.decision)
                chars +=
                    (r.reason?.length ?? 0) +
                        (r.evidenceDigest?.length ?? 0) +
                        (r.requestId?.length ?? 0) +
                        (r.actor?.length ?? 0);
        }
        return chars;
    }
}
exports.Adjudications = Adjudications;
