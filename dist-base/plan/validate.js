"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.formatPath = formatPath;
exports.formatProblems = formatProblems;
exports.validatePlan = validatePlan;
exports.checkActivityTasks = checkActivityTasks;
exports.checkApprovers = checkApprovers;
const schema_1 = require("./schema");
const graph_1 = require("./graph");
const bytes_1 = require("./bytes");
const scope_1 = require("./scope");
const env_rules_1 = require("./env-rules");
const unknown_keys_1 = require("./unknown-keys");
const packed_1 = require("./packed");
function formatPath(path) {
    let out = '';
    for (const part of path) {
        if (typeof part === 'number')
            out += `[${part}]`;
        else
            out += out ? `.${String(part)}` : String(part);
    }
    return out || '(plan)';
}
function formatProblems(problems) {
    return problems.map((p) => `${p.path}: ${p.message}`).join('\n');
}
/** Parses a plan and checks its graph; returns every problem found, not only the first. */
function validatePlan(input, options = {}) {
    const problems = checkSize(input);
    const parsed = schema_1.TeamPlanSchema.safeParse(input);
    if (parsed.success) {
        problems.push(...checkScopes(parsed.data), ...checkGraph(parsed.data.tasks), ...checkActivityTasks(parsed.data, parsed.data.tasks), ...checkApprovers(parsed.data));
        if (problems.length === 0)
            problems.push(...checkPackedSize(parsed.data));
        if (options.knownKinds)
            problems.push(...checkKinds(parsed.data, options.knownKinds));
        if (options.commandsRestricted)
            problems.push(...(0, env_rules_1.checkPlanEnv)(parsed.data));
        return problems.length ? { ok: false, problems } : { ok: true, plan: parsed.data };
    }
    for (const issue of parsed.error.issues) {
        if (issue.code === 'unrecognized_keys')
            problems.push(...(0, unknown_keys_1.unknownFieldProblems)(input, issue.path, issue.keys, formatPath));
        else
            problems.push({ path: formatPath(issue.path), code: 'schema', message: issue.message });
    }
    // A typo in one task's fields should not hide a typo in another's dependencies.
    const nodes = graphNodes(input);
    if (nodes)
        problems.push(...checkGraph(nodes));
    return { ok: false, problems };
}
/** The plan must fit Temporal's payload limit with room for the run's state beside it. */
function checkSize(input) {
    let json;
    try {
        json = JSON.stringify(input);
    }
    catch (err) {
        return [
            { path: '(plan)', code: 'not_json', message: `the plan is not plain JSON data: ${err.message}` },
        ];
    }
    const bytes = json === undefined ? 0 : (0, bytes_1.utf8Bytes)(json);
    if (bytes <= schema_1.PLAN_LIMITS.maxPlanBytes)
        return [];
    return [
        {
            path: '(plan)',
            code: 'plan_too_large',
            message: `the plan is ${bytes} bytes of JSON, over the ${schema_1.PLAN_LIMITS.maxPlanBytes}-byte bound ` +
                `(Temporal refuses payloads over ${schema_1.TEMPORAL_PAYLOAD_LIMIT_BYTES} bytes, ` +
                `with room kept for the rest of the request); split it into several runs`,
        },
    ];
}
/** What the run carries of its plan when it continues as new must leave room for its state. */
function checkPackedSize(plan) {
    const bytes = (0, bytes_1.utf8Bytes)(JSON.stringify((0, packed_1.packPlan)(plan)));
    if (bytes <= schema_1.PLAN_LIMITS.maxPackedPlanBytes)
        return [];
    return [
        {
            path: '(plan)',
            code: 'plan_too_large',
            message: `the plan packs to ${bytes} bytes, over the ${schema_1.PLAN_LIMITS.maxPackedPlanBytes}-byte ` +
                `bound on what a run carries of it when it continues as new ` +
                `(Temporal's payload limit is ${schema_1.TEMPORAL_PAYLOAD_LIMIT_BYTES} bytes, and the run's ` +
                `state travels beside it); split it into several runs or share executors between tasks`,
        },
    ];
}
/**
 * Normalises every scope in place (`./docs//` is `docs`); `..` and absolute paths outside the workspace are problems.
 */
function checkScopes(plan) {
    const problems = [];
    plan.defaultScope?.forEach((scope, j) => {
        const check = (0, scope_1.normalizeScope)(scope);
        if (check.ok)
            plan.defaultScope[j] = check.scope;
        else
            problems.push({ path: `defaultScope[${j}]`, code: 'invalid_scope', message: check.message });
    });
    plan.tasks.forEach((task, i) => {
        task.scope.forEach((scope, j) => {
            const check = (0, scope_1.normalizeScope)(scope);
            if (check.ok)
                task.scope[j] = check.scope;
            else
                problems.push({ path: `tasks[${i}].scope[${j}]`, code: 'invalid_scope', message: check.message });
        });
    });
    return problems;
}
function checkKinds(plan, knownKinds) {
    const custom = new Set(knownKinds);
    const index = new graph_1.KeyIndex([...schema_1.BUILTIN_EXECUTOR_KINDS, ...custom]);
    const problems = [];
    plan.tasks.forEach((task, i) => {
        const kind = task.executor.kind;
        if ((0, schema_1.isBuiltinExecutorKind)(kind) || custom.has(kind))
            return;
        const guess = index.nearest(kind);
        problems.push({
            path: `tasks[${i}].executor.kind`,
            code: 'unknown_executor_kind',
            message: `unknown executor kind "${kind}"${guess ? ` (did you mean "${guess}"?)` : ''}: ` +
                `built in are ${schema_1.BUILTIN_EXECUTOR_KINDS.join(', ')}` +
                (custom.size
                    ? `; custom: ${[...custom].join(', ')}`
                    : '; declare a custom kind with --kind or worker.customKinds in the config'),
        });
    });
    return problems;
}
/** The graph of a plan that failed its schema, read leniently; null when there is no task list to read. */
function graphNodes(input) {
    const tasks = typeof input === 'object' && input !== null ? input.tasks : undefined;
    if (!Array.isArray(tasks) || tasks.length > schema_1.PLAN_LIMITS.maxTasks)
        return null;
    return tasks.map((task) => {
        const fields = typeof task === 'object' && task !== null ? task : {};
        return {
            key: typeof fields.key === 'string' ? fields.key : null,
            dependsOn: Array.isArray(fields.dependsOn) ? fields.dependsOn : [],
        };
    });
}
function checkGraph(tasks) {
    const problems = [];
    if (tasks.length === 0) {
        problems.push({ path: 'tasks', code: 'empty', message: 'a plan needs at least one task' });
        return problems;
    }
    const firstIndex = new Map();
    tasks.forEach((task, i) => {
        if (task.key === null)
            return;
        const earlier = firstIndex.get(task.key);
        if (earlier !== undefined) {
            problems.push({
                path: `tasks[${i}].key`,
                code: 'duplicate_key',
                message: `duplicate task key "${task.key}" (first used at tasks[${earlier}])`,
            });
        }
        else {
            firstIndex.set(task.key, i);
        }
    });
    const known = new graph_1.KeyIndex(firstIndex.keys());
    // The graph the cycle search walks: first definitions only, self-dependencies reported on their own.
    const edges = new Map();
    tasks.forEach((task, i) => {
        const seen = new Set();
        const deps = [];
        task.dependsOn.forEach((dep, j) => {
            if (typeof dep !== 'string')
                return;
            const path = `tasks[${i}].dependsOn[${j}]`;
            if (dep === task.key) {
                problems.push({ path, code: 'self_dependency', message: `task "${task.key}" depends on itself` });
            }
            else if (!firstIndex.has(dep)) {
                const guess = known.nearest(dep);
                problems.push({
                    path,
                    code: 'unknown_dependency',
                    message: `unknown task "${dep}"${guess ? ` (did you mean "${guess}"?)` : ''}`,
                });
            }
            else if (seen.has(dep)) {
                problems.push({ path, code: 'duplicate_dependency', message: `"${dep}" is listed twice` });
            }
            else {
                deps.push(dep);
            }
            seen.add(dep);
        });
        if (task.key !== null && firstIndex.get(task.key) === i)
            edges.set(task.key, deps);
    });
    const cycle = (0, graph_1.findCycle)([...edges].map(([key, dependsOn]) => ({ key, dependsOn })));
    if (cycle) {
        problems.push({
            path: `tasks[${firstIndex.get(cycle[0]) ?? 0}].dependsOn`,
            code: 'cycle',
            message: `dependency cycle: ${(0, graph_1.formatCycle)(cycle)}`,
        });
    }
    return problems;
}
/**
 * Governance of `activity` tasks: no worker of teamrun's guards a foreign task queue, so the run
 * itself allows only the queues its plan lists in `activityQueues`.
 */
function checkActivityTasks(plan, tasks, pathOf = (i) => `tasks[${i}]`) {
    const allowed = new Set(plan.activityQueues ?? []);
    const problems = [];
    tasks.forEach((task, i) => {
        if (task.executor.kind !== 'activity')
            return;
        const queue = task.executor.taskQueue;
        if (!allowed.has(queue)) {
            const guess = (0, graph_1.nearest)(queue, [...allowed]);
            problems.push({
                path: `${pathOf(i)}.executor.taskQueue`,
                code: 'activity_queue_not_allowed',
                message: `task queue "${queue}" is not in the plan's activityQueues` +
                    (allowed.size ? ` (${[...allowed].map((q) => `"${q}"`).join(', ')})` : ' (none listed)') +
                    (guess ? `; did you mean "${guess}"?` : ''),
            });
        }
        // A shared ledger's slot is renewed by teamrun's own worker while the attempt runs; a foreign worker cannot.
        if (plan.budget.ledger !== undefined) {
            problems.push({
                path: `${pathOf(i)}.executor`,
                code: 'activity_with_ledger',
                message: `an activity task cannot run under a shared ledger ` +
                    `("${plan.budget.ledger}"): its worker cannot renew the ledger slot`,
            });
        }
    });
    return problems;
}
/**
 * An approval's `approvers` narrow `governance.operators`: an approver who is not an operator
 * could never decide it, so the plan says so up front.
 */
function checkApprovers(plan) {
    const operators = plan.governance?.operators;
    if (!operators)
        return [];
    const problems = [];
    plan.tasks.forEach((task, i) => {
        if (task.executor.kind !== 'approval')
            return;
        const approvers = (task.executor.approvers ?? []);
        approvers.forEach((name, a) => {
            if (operators.includes(name))
                return;
            problems.push({
                path: `tasks[${i}].executor.approvers[${a}]`,
                code: 'approver_not_operator',
                message: `approver "${name}" is not one of governance.operators ` +
                    `(${operators.map((o) => `"${o}"`).join(', ')}): they could never decide this task`,
            });
        });
    });
    return problems;
}
