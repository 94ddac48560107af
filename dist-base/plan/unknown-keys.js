"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.unknownFieldProblems = unknownFieldProblems;
const graph_1 = require("./graph");
const schema_1 = require("./schema");
/** The fields of the objects a plan nests, by the name they are found under; read from the schemas. */
const FIELDS = {
    plan: Object.keys(schema_1.TeamPlanSchema.shape),
    task: Object.keys(schema_1.TaskSchema.shape),
    budget: Object.keys(schema_1.BudgetSchema.shape),
    retry: Object.keys(schema_1.RetrySchema.shape),
    lease: ['ttlMs', 'heartbeatEveryMs'],
    estimate: ['tokens', 'usd'],
    governance: ['operators'],
    hooks: ['teammateIdle'],
    teammateIdle: ['executor'],
};
/** What a plan wrote at `path` (leniently: anything missing is undefined). */
function valueAt(input, path) {
    let value = input;
    for (const part of path) {
        if (typeof value !== 'object' || value === null)
            return undefined;
        value = value[part];
    }
    return value;
}
/** The fields the object at `path` may have: by the name it is under, an executor by its kind. */
function fieldsAt(input, path) {
    const last = path.at(-1);
    if (last === undefined)
        return FIELDS.plan;
    if (typeof last === 'number')
        return path.at(-2) === 'tasks' ? FIELDS.task : [];
    if (last === 'executor') {
        const kind = valueAt(input, path)?.kind;
        if (typeof kind !== 'string' || !(0, schema_1.isBuiltinExecutorKind)(kind))
            return [];
        return Object.keys(schema_1.BUILTIN_EXECUTOR_SCHEMAS[kind].shape);
    }
    return Object.hasOwn(FIELDS, last) ? FIELDS[last] : [];
}
/**
 * A field the schema does not know, one problem per field at its own path, with a did-you-mean
 * from the fields of the same object (`tasks[0].depends_on` -> `dependsOn`).
 */
function unknownFieldProblems(input, path, keys, formatPath) {
    const known = fieldsAt(input, path);
    return keys.map((key) => {
        const guess = (0, graph_1.nearest)(key, known);
        return {
            path: formatPath([...path, key]),
            code: 'unknown_field',
            message: `unknown field${guess ? ` (did you mean "${guess}"?)` : ''}`,
        };
    });
}
