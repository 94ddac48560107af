"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.sameJson = void 0;
exports.packPlan = packPlan;
exports.unpackPlan = unpackPlan;
/**
 * The packed form of a plan, as a run's continue-as-new snapshot carries it (src/team/snapshot.ts
 * packs the task states beside it), and as the plan's size bound counts it (validate.ts). Pure
 * and lossless.
 */
const schema_1 = require("./schema");
/** The task fields the schema fills in when a plan leaves them out (`dependsOn: []`, `priority: 'normal'`, ...). */
const TASK_DEFAULTS = (() => {
    const { key: _key, executor: _executor, dependsOn: _dependsOn, ...defaults } = schema_1.TaskSchema.parse({
        key: 'k',
        executor: { kind: 'noop' },
    });
    return defaults;
})();
const SPEC_ROW_FIELDS = new Set(['key', 'executor', 'dependsOn']);
/** Equal values, or equal as JSON (the defaults compared against are plain data). */
const sameJson = (a, b) => a === b || JSON.stringify(a) === JSON.stringify(b);
exports.sameJson = sameJson;
/** A plan as a snapshot carries it: executors in a table, task specs as rows without their defaults. */
function packPlan(plan) {
    const index = new Map(plan.tasks.map((spec, i) => [spec.key, i]));
    const executors = [];
    const executorIndex = new Map();
    const specs = plan.tasks.map((spec) => {
        const json = JSON.stringify(spec.executor);
        let e = executorIndex.get(json);
        if (e === undefined) {
            e = executors.push(spec.executor) - 1;
            executorIndex.set(json, e);
        }
        const specRest = {};
        for (const [field, value] of Object.entries(spec)) {
            if (SPEC_ROW_FIELDS.has(field) || value === undefined)
                continue;
            if (Object.hasOwn(TASK_DEFAULTS, field) && (0, exports.sameJson)(value, TASK_DEFAULTS[field]))
                continue;
            specRest[field] = value;
        }
        const deps = spec.dependsOn.map((dep) => index.get(dep));
        if (Object.keys(specRest).length > 0)
            return [spec.key, e, deps, specRest];
        return deps.length > 0 ? [spec.key, e, deps] : [spec.key, e];
    });
    return { ...plan, executors, tasks: specs };
}
/** The plan a packed one was made from, each task spec with its schema defaults filled back in. */
function unpackPlan(packed) {
    const { executors, tasks: rows, ...planRest } = packed;
    const keys = rows.map((row) => row[0]);
    const specs = rows.map(([key, e, deps, specRest]) => {
        const spec = { key, dependsOn: deps ? deps.map((d) => keys[d]) : [], executor: executors[e] };
        for (const field in TASK_DEFAULTS) {
            const value = TASK_DEFAULTS[field];
            spec[field] = Array.isArray(value) ? [...value] : value;
        }
        return specRest ? Object.assign(spec, specRest) : spec;
    });
    return { ...planRest, tasks: specs };
}
