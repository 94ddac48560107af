"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ScheduleError = exports.OWNER_MEMO_KEY = exports.OVERLAP_POLICIES = void 0;
exports.parseEvery = parseEvery;
exports.fingerprint = fingerprint;
exports.declaredTiming = declaredTiming;
exports.createTeamSchedule = createTeamSchedule;
exports.updateTeamSchedule = updateTeamSchedule;
exports.scheduleOwner = scheduleOwner;
exports.recordedAction = recordedAction;
exports.describeTeamSchedule = describeTeamSchedule;
exports.listTeamSchedules = listTeamSchedules;
exports.scheduledTeam = scheduledTeam;
exports.describeSpec = describeSpec;
exports.formatMs = formatMs;
exports.triggerTeamSchedule = triggerTeamSchedule;
exports.pauseTeamSchedule = pauseTeamSchedule;
exports.unpauseTeamSchedule = unpauseTeamSchedule;
exports.deleteTeamSchedule = deleteTeamSchedule;
exports.overlapName = overlapName;
const node_crypto_1 = require("node:crypto");
const client_1 = require("@temporalio/client");
const errors_1 = require("../errors");
const validate_1 = require("../plan/validate");
const messages_1 = require("../workflows/messages");
const search_attributes_1 = require("../workflows/search-attributes");
/** The overlap policies as users write them, and what Temporal calls them. */
exports.OVERLAP_POLICIES = {
    skip: client_1.ScheduleOverlapPolicy.SKIP,
    'buffer-one': client_1.ScheduleOverlapPolicy.BUFFER_ONE,
    'buffer-all': client_1.ScheduleOverlapPolicy.BUFFER_ALL,
    'cancel-other': client_1.ScheduleOverlapPolicy.CANCEL_OTHER,
    'allow-all': client_1.ScheduleOverlapPolicy.ALLOW_ALL,
};
/** Memo key on every schedule teamrun creates: who made it, so `schedule sync --prune` only deletes its own. */
exports.OWNER_MEMO_KEY = 'teamrun';
class ScheduleError extends errors_1.TeamrunError {
    code;
    constructor(code, message) {
        super(message);
        this.code = code;
    }
}
exports.ScheduleError = ScheduleError;
/** Parses `90s`, `15m`, `1h30m`, `1d`, `500ms` into milliseconds. */
function parseEvery(text) {
    const units = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
    const trimmed = text.trim();
    const parts = [...trimmed.matchAll(/(\d+)(ms|s|m|h|d)/g)];
    if (!parts.length || parts.map((p) => p[0]).join('') !== trimmed) {
        throw new ScheduleError('invalid_spec', `--every "${text}": expected a duration like 90s, 15m, 1h30m or 1d`);
    }
    const ms = parts.reduce((sum, [, n, unit]) => sum + Number(n) * units[unit], 0);
    if (ms < 1_000)
        throw new ScheduleError('invalid_spec', `--every "${text}": the interval must be at least 1s`);
    return ms;
}
/** A stable digest of everything sync compares (plan, timing, overlap, paused, queue). */
function fingerprint(spec) {
    const canonical = JSON.stringify(sortKeys(spec));
    return (0, node_crypto_1.createHash)('sha256').update(canonical).digest('hex').slice(0, 16);
}
function sortKeys(value) {
    if (Array.isArray(value))
        return value.map(sortKeys);
    if (value && typeof value === 'object') {
        return Object.fromEntries(Object.entries(value)
            .filter(([, v]) => v !== undefined)
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([k, v]) => [k, sortKeys(v)]));
    }
    return value;
}
function checkSpec(spec) {
    const validation = (0, validate_1.validatePlan)(spec.plan);
    if (!validation.ok) {
        throw new ScheduleError('invalid_plan', `schedule "${spec.id}": invalid team plan:\n${(0, validate_1.formatProblems)(validation.problems)}`);
    }
    if ((spec.cron === undefined) === (spec.everyMs === undefined)) {
        throw new ScheduleError('invalid_spec', `schedule "${spec.id}": give exactly one of a cron expression or an interval`);
    }
}
function scheduleSpec(spec) {
    return {
        ...(spec.cron !== undefined ? { cronExpressions: [spec.cron] } : { intervals: [{ every: spec.everyMs }] }),
        ...(spec.timezone ? { timezone: spec.timezone } : {}),
    };
}
/**
 * What each scheduled run starts: a `teamRun` with the plan. The workflow id is the schedule id;
 * Temporal appends the scheduled time, so every run's id is unique. The action memo carries the
 * fingerprint sync compares.
 */
function startAction(spec) {
    return {
        type: 'startWorkflow',
        workflowType: messages_1.WORKFLOW_TYPE,
        workflowId: spec.id,
        taskQueue: spec.taskQueue,
        args: [spec.plan],
        typedSearchAttributes: [{ key: search_attributes_1.TeamName, value: spec.plan.name }],
        memo: { [exports.OWNER_MEMO_KEY]: { schedule: spec.id, fingerprint: fingerprint(spec), when: declaredTiming(spec) } },
        staticSummary: `team run ${spec.plan.name} (schedule ${spec.id}): ${spec.plan.tasks.length} tasks`,
    };
}
/** The timing as the user wrote it (`cron "0 3 * * *" Europe/Berlin`, `every 1h`); the server keeps only calendars. */
function declaredTiming(spec) {
    const when = spec.cron !== undefined ? `cron "${spec.cron}"` : `every ${formatMs(spec.everyMs ?? 0)}`;
    return spec.timezone ? `${when} ${spec.timezone}` : when;
}
function note(spec, source) {
    return `teamrun ${source === 'sync' ? 'schedule sync' : 'schedule create'}: team ${spec.plan.name}`;
}
/** Creates a schedule of team runs after checking the plan; default overlap is `skip`. */
async function createTeamSchedule(client, spec, source = 'cli') {
    checkSpec(spec);
    const owner = { managedBy: 'teamrun', source, taskQueue: spec.taskQueue };
    try {
        return await client.schedule.create({
            scheduleId: spec.id,
            spec: scheduleSpec(spec),
            action: startAction(spec),
            policies: { overlap: exports.OVERLAP_POLICIES[spec.overlap] },
            state: { paused: spec.paused, note: note(spec, source) },
            memo: { [exports.OWNER_MEMO_KEY]: owner },
            typedSearchAttributes: [{ key: search_attributes_1.TeamName, value: spec.plan.name }],
        });
    }
    catch (err) {
        throw scheduleFailure(spec.id, err);
    }
}
/** Replaces a schedule's spec, action, policy and paused state with `spec`. */
async function updateTeamSchedule(client, spec, source) {
    checkSpec(spec);
    try {
        await client.schedule.getHandle(spec.id).update((previous) => ({
            spec: scheduleSpec(spec),
            action: startAction(spec),
            policies: { ...previous.policies, overlap: exports.OVERLAP_POLICIES[spec.overlap] },
            state: { paused: spec.paused, note: note(spec, source) },
            typedSearchAttributes: previous.typedSearchAttributes,
        }));
    }
    catch (err) {
        throw scheduleFailure(spec.id, err);
    }
}
function scheduleFailure(id, err) {
    if (err instanceof client_1.ScheduleNotFoundError)
        return new ScheduleError('not_found', `schedule "${id}" not found`);
    if (err instanceof client_1.ScheduleAlreadyRunning) {
        return new ScheduleError('already_exists', `schedule "${id}" already exists`);
    }
    // The SDK's own signal for a spec the server refused ("Invalid schedule spec": a cron or time zone it cannot read).
    if (err instanceof TypeError)
        return new ScheduleError('invalid_spec', `schedule "${id}": ${err.message}`);
    return err instanceof Error ? err : new Error(String(err));
}
/** The teamrun owner mark of a schedule, or null when teamrun did not create it. */
function scheduleOwner(memo) {
    const mark = memo?.[exports.OWNER_MEMO_KEY];
    return mark?.managedBy === 'teamrun' &&
        (mark.source === 'cli' || mark.source === 'sync') &&
        typeof mark.taskQueue === 'string'
        ? mark
        : null;
}
/** What teamrun recorded in a schedule's action when it last wrote it: the fingerprint and the declared timing. */
function recordedAction(description) {
    const action = description.action;
    const mark = action.memo?.[exports.OWNER_MEMO_KEY];
    return {
        fingerprint: typeof mark?.fingerprint === 'string' ? mark.fingerprint : null,
        when: typeof mark?.when === 'string' ? mark.when : null,
    };
}
async function describeTeamSchedule(client, id) {
    try {
        return await client.schedule.getHandle(id).describe();
    }
    catch (err) {
        throw scheduleFailure(id, err);
    }
}
/** Every schedule in the namespace that starts `teamRun` (listing is eventually consistent). */
async function listTeamSchedules(client) {
    const rows = [];
    for await (const summary of client.schedule.list()) {
        if (summary.action?.type !== 'startWorkflow' || summary.action.workflowType !== messages_1.WORKFLOW_TYPE)
            continue;
        rows.push(scheduleRow(summary));
    }
    // A schedule made elsewhere (`temporal schedule create`) has no TeamName of its own: its team
    // is the name of the plan its action starts, which only a describe returns.
    await Promise.all(rows
        .filter((row) => row.team === null)
        .map(async (row) => {
        row.team = scheduledTeam(await client.schedule
            .getHandle(row.id)
            .describe()
            .catch(() => null));
    }));
    return rows.sort((a, b) => a.id.localeCompare(b.id));
}
/** The team a schedule starts: its TeamName search attribute, else the name of the plan in its action's arguments. */
function scheduledTeam(description) {
    if (!description)
        return null;
    const own = description.typedSearchAttributes.get(search_attributes_1.TeamName);
    if (own)
        return own;
    const action = description.action;
    const fromAction = action.typedSearchAttributes?.get(search_attributes_1.TeamName);
    if (fromAction)
        return fromAction;
    const plan = action.args?.[0];
    return plan && typeof plan === 'object' && typeof plan.name === 'string' ? plan.name : null;
}
function scheduleRow(summary) {
    const last = summary.info.recentActions.at(-1);
    return {
        id: summary.scheduleId,
        team: summary.typedSearchAttributes?.get(search_attributes_1.TeamName) ?? null,
        spec: describeSpec(summary.spec),
        paused: summary.state.paused,
        owner: scheduleOwner(summary.memo),
        // A paused schedule starts nothing: the server still computes times, but none is a next run.
        nextRun: summary.state.paused ? null : (summary.info.nextActionTimes[0] ?? null),
        lastRun: last ? { workflowId: last.action.workflow.workflowId, at: last.takenAt } : null,
    };
}
/** A short human form of a schedule's timing (the server stores cron as calendars). */
function describeSpec(spec) {
    if (!spec)
        return '?';
    const parts = [];
    for (const interval of spec.intervals ?? [])
        parts.push(`every ${formatMs(Number(interval.every))}`);
    for (const calendar of spec.calendars ?? [])
        parts.push(compactCalendar(calendar));
    return (parts.join(', ') || '(no times)') + (spec.timezone ? ` (${spec.timezone})` : '');
}
const FULL_RANGES = {
    second: '0-59',
    minute: '0-59',
    hour: '0-23',
    dayOfMonth: '1-31',
    month: 'JANUARY-DECEMBER',
    dayOfWeek: 'SUNDAY-SATURDAY',
};
/** `hour=3 minute=0 second=0` -> `at 03:00:00`; otherwise the fields that narrow the times. */
function compactCalendar(calendar) {
    const values = calendar;
    const field = (name) => {
        const text = (values[name] ?? [])
            .map((r) => (r.start === r.end ? String(r.start) : `${r.start}-${r.end}`) + ((r.step ?? 1) > 1 ? `/${r.step}` : ''))
            .join(',');
        if (!text || text === FULL_RANGES[name])
            return '*';
        return text.startsWith(`${FULL_RANGES[name]}/`) ? `*${text.slice(FULL_RANGES[name].length)}` : text;
    };
    const clock = ['hour', 'minute', 'second'].map(field);
    const parts = clock.every((v) => /^\d+$/.test(v))
        ? [`at ${clock.map((v) => v.padStart(2, '0')).join(':')}`]
        : ['second', 'minute', 'hour'].filter((name) => field(name) !== '*').map((name) => `${name} ${field(name)}`);
    for (const name of ['dayOfMonth', 'month', 'dayOfWeek']) {
        if (field(name) !== '*')
            parts.push(`${name} ${field(name)}`);
    }
    return parts.join(', ');
}
function formatMs(ms) {
    const units = [
        ['d', 86_400_000],
        ['h', 3_600_000],
        ['m', 60_000],
        ['s', 1_000],
    ];
    let rest = ms;
    let out = '';
    for (const [unit, size] of units) {
        if (rest >= size) {
            out += `${Math.floor(rest / size)}${unit}`;
            rest %= size;
        }
    }
    return out + (rest ? `${rest}ms` : '') || '0s';
}
/** Starts one run now, under the schedule's own overlap policy unless `overlap` overrides it. */
async function triggerTeamSchedule(client, id, overlap) {
    const description = await describeTeamSchedule(client, id);
    // The SDK's trigger defaults to ALLOW_ALL; a team schedule's own policy must hold (default skip).
    const policy = overlap ? exports.OVERLAP_POLICIES[overlap] : description.policies.overlap;
    await client.schedule.getHandle(id).trigger(policy);
    return policy;
}
async function pauseTeamSchedule(client, id, reason) {
    try {
        await client.schedule.getHandle(id).pause(reason ?? 'paused with teamrun schedule pause');
    }
    catch (err) {
        throw scheduleFailure(id, err);
    }
}
async function unpauseTeamSchedule(client, id, reason) {
    try {
        await client.schedule.getHandle(id).unpause(reason ?? 'unpaused with teamrun schedule unpause');
    }
    catch (err) {
        throw scheduleFailure(id, err);
    }
}
async function deleteTeamSchedule(client, id) {
    try {
        await client.schedule.getHandle(id).delete();
    }
    catch (err) {
        throw scheduleFailure(id, err);
    }
}
/** The overlap name of a Temporal policy (`SKIP` -> `skip`). */
function overlapName(policy) {
    const entry = Object.entries(exports.OVERLAP_POLICIES).find(([, value]) => value === policy);
    return entry ? entry[0] : String(policy).toLowerCase();
}
