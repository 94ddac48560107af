"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.packSnapshot = packSnapshot;
exports.unpackSnapshot = unpackSnapshot;
/**
 * Owns the packed form of a run's snapshot for continue-as-new, and packing it back. Pure and
 * lossless; what the snapshot holds is each part's business, not this file's.
 */
const packed_1 = require("../plan/packed");
const types_1 = require("./types");
const FORMAT = 1;
/** Row positions 1..7 and the value each takes when it is left out. */
const ROW_DEFAULTS = [0, 0, 0, 0, 0, null, null];
/** Fields kept in a row's `rest` only when they differ from these (the values `unpackTask` starts from). */
const REST_DEFAULTS = {
    current: null,
    previousLease: null,
    lastError: null,
    skipReason: null,
    usage: { inputTokens: 0, outputTokens: 0, cacheTokens: 0, costUsd: 0 },
};
const ROW_FIELDS = new Set([
    'key',
    'status',
    'attempts',
    'uncounted',
    'fencingToken',
    'holder',
    'readyAt',
    'startedAt',
    'settledAt',
]);
function packSnapshot(snapshot) {
    const { plan, tasks, ...rest } = snapshot;
    const t0 = snapshot.startedAt;
    return {
        ...rest,
        format: FORMAT,
        plan: (0, packed_1.packPlan)(plan),
        tasks: tasks.map((task) => packTask(task, t0)),
    };
}
/** The snapshot a packed one was made from (a snapshot that was never packed passes through). */
function unpackSnapshot(packed) {
    if (!('format' in packed))
        return packed;
    if (packed.format !== FORMAT)
        throw new Error(`snapshot format ${String(packed.format)} is not one this worker reads (${String(FORMAT)})`);
    const { format: _format, plan, tasks, ...rest } = packed;
    if (tasks.length !== plan.tasks.length) {
        throw new Error(`snapshot holds ${tasks.length} task states for a plan of ${plan.tasks.length} tasks`);
    }
    const unpacked = (0, packed_1.unpackPlan)(plan);
    return {
        ...rest,
        plan: unpacked,
        tasks: tasks.map((row, i) => unpackTask(row, unpacked.tasks[i].key, packed.startedAt)),
    };
}
function packTask(task, t0) {
    const slot = task.holder === null ? 0 : /^teammate-[1-9]\d*$/.test(task.holder) ? Number(task.holder.slice(9)) : task.holder;
    const row = [
        types_1.TASK_STATUSES.indexOf(task.status),
        task.attempts,
        task.uncounted,
        task.fencingToken,
        slot,
        task.readyAt - t0,
        task.startedAt === null ? null : task.startedAt - t0,
        task.settledAt === null ? null : task.settledAt - t0,
    ];
    const rest = {};
    for (const [field, value] of Object.entries(task)) {
        if (ROW_FIELDS.has(field) || value === undefined)
            continue;
        if (field in REST_DEFAULTS && (0, packed_1.sameJson)(value, REST_DEFAULTS[field]))
            continue;
        rest[field] = value;
    }
    if (Object.keys(rest).length > 0) {
        row.push(rest);
        return row;
    }
    while (row.length > 1 && row[row.length - 1] === ROW_DEFAULTS[row.length - 2])
        row.pop();
    return row;
}
function unpackTask(row, key, t0) {
    const at = (position) => (position < row.length ? row[position] : ROW_DEFAULTS[position - 1]);
    const holder = at(4);
    const startedAt = at(6);
    const settledAt = at(7);
    const task = {
        key,
        status: types_1.TASK_STATUSES[row[0]],
        attempts: at(1),
        uncounted: at(2),
        fencingToken: at(3),
        current: null,
        holder: holder === 0 ? null : typeof holder === 'number' ? `teammate-${holder}` : holder,
        previousLease: null,
        readyAt: t0 + at(5),
        startedAt: startedAt === null ? null : t0 + startedAt,
        settledAt: settledAt === null ? null : t0 + settledAt,
        lastError: null,
        skipReason: null,
        usage: { inputTokens: 0, outputTokens: 0, cacheTokens: 0, costUsd: 0 },
    };
    return row.length > 8 ? Object.assign(task, row[8]) : task;
}
