"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.validateAddedTasks = validateAddedTasks;
const packed_1 = require("./packed");
const bytes_1 = require("./bytes");
const graph_1 = require("./graph");
const schema_1 = require("./schema");
const scope_1 = require("./scope");
const validate_1 = require("./validate");
/**
 * Checks tasks to add to a running run exactly as a plan's tasks are checked, against the run's
 * graph: keys unique across the run and the batch, every dependency in the run or the batch, no
 * self or repeated dependency, no cycle, scopes inside the workspace (normalised in place, as a
 * plan's are), activity queues the plan allows, and the run's size within the plan's bounds (its
 * task count, and what it packs to when it continues as new). Paths are the request's
 * (`tasks[2].dependsOn[0]`).
 *
 * A cycle can only lie inside the batch: tasks already in the run never depend on a new one (their
 * dependencies are fixed and were all known), so a dependency on a settled task never closes one.
 */
function validateAddedTasks(tasks, graph, plan) {
    const problems = [];
    if (graph.size + tasks.length > schema_1.PLAN_LIMITS.maxTasks) {
        problems.push({
            path: 'tasks',
            code: 'too_many_tasks',
            message: `the run has ${graph.size} tasks; ${tasks.length} more would ` +
                `pass the bound of ${schema_1.PLAN_LIMITS.maxTasks} tasks in one run`,
        });
    }
    const batch = new Map();
    tasks.forEach((task, i) => {
        const earlier = batch.get(task.key);
        if (graph.has(task.key)) {
            problems.push({
                path: `tasks[${i}].key`,
                code: 'duplicate_key',
                message: `duplicate task key "${task.key}" (already in the run)`,
            });
        }
        else if (earlier !== undefined) {
            problems.push({
                path: `tasks[${i}].key`,
                code: 'duplicate_key',
                message: `duplicate task key "${task.key}" (first used at tasks[${earlier}])`,
            });
        }
        else {
            batch.set(task.key, i);
        }
    });
    // Did-you-mean over the run and the request, bounded as a plan's is (built only if a dependency is unknown).
    const known = new graph_1.KeyIndex((function* () {
        yield* batch.keys();
        yield* graph.keys();
    })());
    const edges = [];
    tasks.forEach((task, i) => {
        const seen = new Set();
        const inBatch = [];
        task.dependsOn.forEach((dep, j) => {
            const path = `tasks[${i}].dependsOn[${j}]`;
            if (dep === task.key) {
                problems.push({ path, code: 'self_dependency', message: `task "${task.key}" depends on itself` });
            }
            else if (seen.has(dep)) {
                problems.push({ path, code: 'duplicate_dependency', message: `"${dep}" is listed twice` });
            }
            else if (batch.has(dep)) {
                inBatch.push(dep);
            }
            else if (!graph.has(dep)) {
                const guess = known.nearest(dep);
                problems.push({
                    path,
                    code: 'unknown_dependency',
                    message: `unknown task "${dep}": not in the run nor in this ` +
                        `request${guess ? ` (did you mean "${guess}"?)` : ''}`,
                });
            }
            seen.add(dep);
        });
        if (batch.get(task.key) === i)
            edges.push({ key: task.key, dependsOn: inBatch });
    });
    const cycle = (0, graph_1.findCycle)(edges);
    if (cycle) {
        problems.push({
            path: `tasks[${batch.get(cycle[0]) ?? 0}].dependsOn`,
            code: 'cycle',
            message: `dependency cycle: ${(0, graph_1.formatCycle)(cycle)}`,
        });
    }
    tasks.forEach((task, i) => {
        task.scope.forEach((scope, j) => {
            const check = (0, scope_1.normalizeScope)(scope);
            if (check.ok)
                task.scope[j] = check.scope;
            else
                problems.push({ path: `tasks[${i}].scope[${j}]`, code: 'invalid_scope', message: check.message });
        });
    });
    problems.push(...(0, validate_1.checkActivityTasks)(plan, tasks));
    if (problems.length === 0)
        problems.push(...checkPackedSize(plan, tasks));
    return problems;
}
/**
 * The run's plan with the new tasks must still pack within the
 * bound a plan is held to (PLAN_LIMITS.maxPackedPlanBytes).
 */
function checkPackedSize(plan, tasks) {
    const bytes = (0, bytes_1.utf8Bytes)(JSON.stringify((0, packed_1.packPlan)({ ...plan, tasks: [...plan.tasks, ...tasks] })));
    if (bytes <= schema_1.PLAN_LIMITS.maxPackedPlanBytes)
        return [];
    return [
        {
            path: 'tasks',
            code: 'plan_too_large',
            message: `with these tasks the run's plan packs to ${bytes} bytes, over ` +
                `the ${schema_1.PLAN_LIMITS.maxPackedPlanBytes}-byte bound on what a run carries when ` +
                `it continues as new; add smaller tasks (share executors) or start another run`,
        },
    ];
}
