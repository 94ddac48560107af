"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.declaredSchedules = declaredSchedules;
exports.planSync = planSync;
exports.applySync = applySync;
const node_path_1 = __importDefault(require("node:path"));
const load_1 = require("../plan/load");
const validate_1 = require("../plan/validate");
const schedules_1 = require("./schedules");
/**
 * Reads `schedules:` from the config into full specs; plan paths are relative to the config
 * file. Every plan is validated before anything is touched, so a bad one changes nothing.
 */
function declaredSchedules(config) {
    const base = config.file ? node_path_1.default.dirname(config.file) : process.cwd();
    const problems = [];
    const specs = [];
    const seen = new Set();
    config.schedules.forEach((declared, i) => {
        const where = `schedules[${i}] (${declared.id})`;
        if (seen.has(declared.id))
            problems.push(`${where}: duplicate schedule id`);
        seen.add(declared.id);
        const file = node_path_1.default.resolve(base, declared.plan);
        const loaded = (0, load_1.loadPlanFile)(file);
        if (!loaded.ok) {
            problems.push(`${where}: plan ${file}:\n${indent((0, validate_1.formatProblems)(loaded.problems))}`);
            return;
        }
        try {
            specs.push({
                id: declared.id,
                plan: loaded.raw,
                ...(declared.cron !== undefined ? { cron: declared.cron } : { everyMs: (0, schedules_1.parseEvery)(declared.every) }),
                overlap: declared.overlap,
                paused: declared.paused,
                ...(declared.timezone ? { timezone: declared.timezone } : {}),
                taskQueue: config.connection.taskQueue,
            });
        }
        catch (err) {
            problems.push(`${where}: ${err.message}`);
        }
    });
    if (problems.length)
        throw new schedules_1.ScheduleError('invalid_spec', `schedules in ${config.file ?? 'config'}:\n${problems.join('\n')}`);
    return specs;
}
const indent = (text) => text.replace(/^/gm, '    ');
/**
 * Works out what sync must do: create declared schedules that are missing, update those whose
 * fingerprint changed, and (with `prune`) delete schedules `schedule sync` created for this task
 * queue that are no longer declared. Schedules teamrun did not create are never touched.
 */
async function planSync(client, declared, options) {
    const steps = [];
    for (const spec of declared) {
        let description;
        try {
            description = await (0, schedules_1.describeTeamSchedule)(client, spec.id);
        }
        catch (err) {
            if (err instanceof schedules_1.ScheduleError && err.code === 'not_found') {
                steps.push({ op: 'create', id: spec.id, detail: `team ${spec.plan.name}, ${timing(spec)}` });
                continue;
            }
            throw err;
        }
        if (!(0, schedules_1.scheduleOwner)(description.memo)) {
            steps.push({
                op: 'conflict',
                id: spec.id,
                detail: 'a schedule with this id exists and was not created by teamrun; left alone',
            });
        }
        else if ((0, schedules_1.recordedAction)(description).fingerprint === (0, schedules_1.fingerprint)(spec)) {
            steps.push({ op: 'unchanged', id: spec.id, detail: `team ${spec.plan.name}, ${timing(spec)}` });
        }
        else {
            steps.push({ op: 'update', id: spec.id, detail: `team ${spec.plan.name}, ${timing(spec)}` });
        }
    }
    if (options.prune) {
        const wanted = new Set(declared.map((s) => s.id));
        for (const row of await (0, schedules_1.listTeamSchedules)(client)) {
            if (wanted.has(row.id) || row.owner?.source !== 'sync' || row.owner.taskQueue !== options.taskQueue)
                continue;
            steps.push({ op: 'delete', id: row.id, detail: 'created by schedule sync and no longer declared' });
        }
    }
    return steps;
}
function timing(spec) {
    return `${(0, schedules_1.declaredTiming)(spec)}, overlap ${spec.overlap}${spec.paused ? ', paused' : ''}`;
}
/** Carries out the steps `planSync` worked out. */
async function applySync(client, declared, steps) {
    const byId = new Map(declared.map((s) => [s.id, s]));
    for (const step of steps) {
        if (step.op === 'create')
            await (0, schedules_1.createTeamSchedule)(client, byId.get(step.id), 'sync');
        else if (step.op === 'update')
            await (0, schedules_1.updateTeamSchedule)(client, byId.get(step.id), 'sync');
        else if (step.op === 'delete')
            await (0, schedules_1.deleteTeamSchedule)(client, step.id);
    }
}
