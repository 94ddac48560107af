import { createHash } from 'node:crypto';
import {
  ScheduleAlreadyRunning,
  ScheduleNotFoundError,
  ScheduleOverlapPolicy,
  type Client,
  type ScheduleDescription,
  type ScheduleOptionsStartWorkflowAction,
  type ScheduleSpec,
  type ScheduleSummary,
} from '@temporalio/client';
import { TeamrunError } from '../errors';
import type { TeamPlanInput } from '../plan/schema';
import { validatePlan, formatProblems } from '../plan/validate';
import { runSummary } from '../format';
import type { teamRun } from '../workflows/team-run';
import { WORKFLOW_TYPE } from '../workflows/messages';
import { TeamName } from '../workflows/search-attributes';

/** The overlap policies as users write them, and what Temporal calls them. */
export const OVERLAP_POLICIES = {
  skip: ScheduleOverlapPolicy.SKIP,
  'buffer-one': ScheduleOverlapPolicy.BUFFER_ONE,
  'buffer-all': ScheduleOverlapPolicy.BUFFER_ALL,
  'cancel-other': ScheduleOverlapPolicy.CANCEL_OTHER,
  'allow-all': ScheduleOverlapPolicy.ALLOW_ALL,
} as const;
export type OverlapName = keyof typeof OVERLAP_POLICIES;

/** Memo key on every schedule teamrun creates: who made it, so `schedule sync --prune` only deletes its own. */
export const OWNER_MEMO_KEY = 'teamrun';

export interface ScheduleOwner {
  managedBy: 'teamrun';
  /** `cli` (`teamrun schedule create`) or `sync` (declared in teamrun.yaml; `sync --prune` may delete it). */
  source: 'cli' | 'sync';
  /** Task queue the schedule starts runs on; sync only prunes schedules of its own queue. */
  taskQueue: string;
}

/** Everything a team schedule is made of; its fingerprint says whether a declared one changed. */
export interface TeamScheduleSpec {
  id: string;
  plan: TeamPlanInput;
  cron?: string;
  /** Interval in milliseconds. */
  everyMs?: number;
  overlap: OverlapName;
  paused: boolean;
  timezone?: string;
  taskQueue: string;
}

export class ScheduleError extends TeamrunError {
  constructor(
    readonly code: 'invalid_plan' | 'invalid_spec' | 'not_found' | 'already_exists' | 'not_owned',
    message: string,
  ) {
    super(message);
  }
}

/** Parses `90s`, `15m`, `1h30m`, `1d`, `500ms` into milliseconds. */
export function parseEvery(text: string): number {
  const units: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
  const trimmed = text.trim();
  const parts = [...trimmed.matchAll(/(\d+)(ms|s|m|h|d)/g)];
  if (!parts.length || parts.map((p) => p[0]).join('') !== trimmed) {
    throw new ScheduleError('invalid_spec', `--every "${text}": expected a duration like 90s, 15m, 1h30m or 1d`);
  }
  const ms = parts.reduce((sum, [, n, unit]) => sum + Number(n) * units[unit], 0);
  if (ms < 1_000) throw new ScheduleError('invalid_spec', `--every "${text}": the interval must be at least 1s`);
  return ms;
}

/** A stable digest of everything sync compares (plan, timing, overlap, paused, queue). */
export function fingerprint(spec: TeamScheduleSpec): string {
  const canonical = JSON.stringify(sortKeys(spec));
  return createHash('sha256').update(canonical).digest('hex').slice(0, 16);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, sortKeys(v)]),
    );
  }
  return value;
}

function checkSpec(spec: TeamScheduleSpec): void {
  const validation = validatePlan(spec.plan);
  if (!validation.ok) {
    throw new ScheduleError(
      'invalid_plan',
      `schedule "${spec.id}": invalid team plan:\n${formatProblems(validation.problems)}`,
    );
  }
  if ((spec.cron === undefined) === (spec.everyMs === undefined)) {
    throw new ScheduleError(
      'invalid_spec',
      `schedule "${spec.id}": give exactly one of a cron expression or an interval`,
    );
  }
}

function scheduleSpec(spec: TeamScheduleSpec): ScheduleSpec {
  return {
    ...(spec.cron !== undefined ? { cronExpressions: [spec.cron] } : { intervals: [{ every: spec.everyMs! }] }),
    ...(spec.timezone ? { timezone: spec.timezone } : {}),
  };
}

/**
 * What each scheduled run starts: a `teamRun` with the plan. The workflow id is the schedule id;
 * Temporal appends the scheduled time, so every run's id is unique. The action memo carries the
 * fingerprint sync compares.
 */
function startAction(spec: TeamScheduleSpec): ScheduleOptionsStartWorkflowAction<typeof teamRun> {
  return {
    type: 'startWorkflow',
    workflowType: WORKFLOW_TYPE,
    workflowId: spec.id,
    taskQueue: spec.taskQueue,
    args: [spec.plan],
    typedSearchAttributes: [{ key: TeamName, value: spec.plan.name }],
    memo: { [OWNER_MEMO_KEY]: { schedule: spec.id, fingerprint: fingerprint(spec), when: declaredTiming(spec) } },
    staticSummary: runSummary(spec.plan, spec.id),
  };
}

/** The timing as the user wrote it (`cron "0 3 * * *" Europe/Berlin`, `every 1h`); the server keeps only calendars. */
export function declaredTiming(spec: Pick<TeamScheduleSpec, 'cron' | 'everyMs' | 'timezone'>): string {
  const when = spec.cron !== undefined ? `cron "${spec.cron}"` : `every ${formatMs(spec.everyMs ?? 0)}`;
  return spec.timezone ? `${when} ${spec.timezone}` : when;
}

function note(spec: TeamScheduleSpec, source: ScheduleOwner['source']): string {
  return `teamrun ${source === 'sync' ? 'schedule sync' : 'schedule create'}: team ${spec.plan.name}`;
}

/** Creates a schedule of team runs after checking the plan; default overlap is `skip`. */
export async function createTeamSchedule(
  client: Client,
  spec: TeamScheduleSpec,
  source: ScheduleOwner['source'] = 'cli',
) {
  checkSpec(spec);
  const owner: ScheduleOwner = { managedBy: 'teamrun', source, taskQueue: spec.taskQueue };
  try {
    return await client.schedule.create({
      scheduleId: spec.id,
      spec: scheduleSpec(spec),
      action: startAction(spec),
      policies: { overlap: OVERLAP_POLICIES[spec.overlap] },
      state: { paused: spec.paused, note: note(spec, source) },
      memo: { [OWNER_MEMO_KEY]: owner },
      typedSearchAttributes: [{ key: TeamName, value: spec.plan.name }],
    });
  } catch (err) {
    throw scheduleFailure(spec.id, err);
  }
}

/** Replaces a schedule's spec, action, policy and paused state with `spec`. */
export async function updateTeamSchedule(
  client: Client,
  spec: TeamScheduleSpec,
  source: ScheduleOwner['source'],
): Promise<void> {
  checkSpec(spec);
  try {
    await client.schedule.getHandle(spec.id).update((previous) => ({
      spec: scheduleSpec(spec),
      action: startAction(spec),
      policies: { ...previous.policies, overlap: OVERLAP_POLICIES[spec.overlap] },
      state: { paused: spec.paused, note: note(spec, source) },
      typedSearchAttributes: previous.typedSearchAttributes,
    }));
  } catch (err) {
    throw scheduleFailure(spec.id, err);
  }
}

function scheduleFailure(id: string, err: unknown): Error {
  if (err instanceof ScheduleNotFoundError) return new ScheduleError('not_found', `schedule "${id}" not found`);
  if (err instanceof ScheduleAlreadyRunning) {
    return new ScheduleError('already_exists', `schedule "${id}" already exists`);
  }
  // The SDK's own signal for a spec the server refused ("Invalid schedule spec": a cron or time zone it cannot read).
  if (err instanceof TypeError) return new ScheduleError('invalid_spec', `schedule "${id}": ${err.message}`);
  return err instanceof Error ? err : new Error(String(err));
}

/** The teamrun owner mark of a schedule, or null when teamrun did not create it. */
export function scheduleOwner(memo: Record<string, unknown> | undefined): ScheduleOwner | null {
  const mark = memo?.[OWNER_MEMO_KEY] as Partial<ScheduleOwner> | undefined;
  return mark?.managedBy === 'teamrun' &&
    (mark.source === 'cli' || mark.source === 'sync') &&
    typeof mark.taskQueue === 'string'
    ? (mark as ScheduleOwner)
    : null;
}

/** What teamrun recorded in a schedule's action when it last wrote it: the fingerprint and the declared timing. */
export function recordedAction(description: ScheduleDescription): { fingerprint: string | null; when: string | null } {
  const action = description.action as { memo?: Record<string, unknown> };
  const mark = action.memo?.[OWNER_MEMO_KEY] as { fingerprint?: unknown; when?: unknown } | undefined;
  return {
    fingerprint: typeof mark?.fingerprint === 'string' ? mark.fingerprint : null,
    when: typeof mark?.when === 'string' ? mark.when : null,
  };
}

export async function describeTeamSchedule(client: Client, id: string): Promise<ScheduleDescription> {
  try {
    return await client.schedule.getHandle(id).describe();
  } catch (err) {
    throw scheduleFailure(id, err);
  }
}

/** One line's worth of a schedule, for `schedule list`. */
export interface TeamScheduleRow {
  id: string;
  team: string | null;
  spec: string;
  paused: boolean;
  owner: ScheduleOwner | null;
  nextRun: Date | null;
  lastRun: { workflowId: string; at: Date } | null;
}

/** Every schedule in the namespace that starts `teamRun` (listing is eventually consistent). */
export async function listTeamSchedules(client: Client): Promise<TeamScheduleRow[]> {
  const rows: TeamScheduleRow[] = [];
  for await (const summary of client.schedule.list()) {
    if (summary.action?.type !== 'startWorkflow' || summary.action.workflowType !== WORKFLOW_TYPE) continue;
    rows.push(scheduleRow(summary));
  }
  // A schedule made elsewhere (`temporal schedule create`) has no TeamName of its own: its team
  // is the name of the plan its action starts, which only a describe returns.
  await Promise.all(
    rows
      .filter((row) => row.team === null)
      .map(async (row) => {
        row.team = scheduledTeam(
          await client.schedule
            .getHandle(row.id)
            .describe()
            .catch(() => null),
        );
      }),
  );
  return rows.sort((a, b) => a.id.localeCompare(b.id));
}

/** The team a schedule starts: its TeamName search attribute, else the name of the plan in its action's arguments. */
export function scheduledTeam(description: ScheduleDescription | null): string | null {
  if (!description) return null;
  const own = description.typedSearchAttributes.get(TeamName);
  if (own) return own;
  const action = description.action as {
    args?: unknown[];
    typedSearchAttributes?: { get(key: typeof TeamName): string | undefined };
  };
  const fromAction = action.typedSearchAttributes?.get(TeamName);
  if (fromAction) return fromAction;
  const plan = action.args?.[0] as { name?: unknown } | undefined;
  return plan && typeof plan === 'object' && typeof plan.name === 'string' ? plan.name : null;
}

function scheduleRow(summary: ScheduleSummary): TeamScheduleRow {
  const last = summary.info.recentActions.at(-1);
  return {
    id: summary.scheduleId,
    team: summary.typedSearchAttributes?.get(TeamName) ?? null,
    spec: describeSpec(summary.spec),
    paused: summary.state.paused,
    owner: scheduleOwner(summary.memo),
    // A paused schedule starts nothing: the server still computes times, but none is a next run.
    nextRun: summary.state.paused ? null : (summary.info.nextActionTimes[0] ?? null),
    lastRun: last ? { workflowId: last.action.workflow.workflowId, at: last.takenAt } : null,
  };
}

/** A short human form of a schedule's timing (the server stores cron as calendars). */
export function describeSpec(spec: ScheduleSummary['spec']): string {
  if (!spec) return '?';
  const parts: string[] = [];
  for (const interval of spec.intervals ?? []) parts.push(`every ${formatMs(Number(interval.every))}`);
  for (const calendar of spec.calendars ?? []) parts.push(compactCalendar(calendar));
  return (parts.join(', ') || '(no times)') + (spec.timezone ? ` (${spec.timezone})` : '');
}

const FULL_RANGES: Record<string, string> = {
  second: '0-59',
  minute: '0-59',
  hour: '0-23',
  dayOfMonth: '1-31',
  month: 'JANUARY-DECEMBER',
  dayOfWeek: 'SUNDAY-SATURDAY',
};

/** `hour=3 minute=0 second=0` -> `at 03:00:00`; otherwise the fields that narrow the times. */
function compactCalendar(calendar: object): string {
  const values = calendar as Record<
    string,
    Array<{ start: number | string; end: number | string; step?: number }> | undefined
  >;
  const field = (name: string) => {
    const text = (values[name] ?? [])
      .map(
        (r) => (r.start === r.end ? String(r.start) : `${r.start}-${r.end}`) + ((r.step ?? 1) > 1 ? `/${r.step}` : ''),
      )
      .join(',');
    if (!text || text === FULL_RANGES[name]) return '*';
    return text.startsWith(`${FULL_RANGES[name]}/`) ? `*${text.slice(FULL_RANGES[name].length)}` : text;
  };
  const clock = ['hour', 'minute', 'second'].map(field);
  const parts = clock.every((v) => /^\d+$/.test(v))
    ? [`at ${clock.map((v) => v.padStart(2, '0')).join(':')}`]
    : ['second', 'minute', 'hour'].filter((name) => field(name) !== '*').map((name) => `${name} ${field(name)}`);
  for (const name of ['dayOfMonth', 'month', 'dayOfWeek']) {
    if (field(name) !== '*') parts.push(`${name} ${field(name)}`);
  }
  return parts.join(', ');
}

export function formatMs(ms: number): string {
  const units: Array<[string, number]> = [
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
export async function triggerTeamSchedule(
  client: Client,
  id: string,
  overlap?: OverlapName,
): Promise<ScheduleOverlapPolicy> {
  const description = await describeTeamSchedule(client, id);
  // The SDK's trigger defaults to ALLOW_ALL; a team schedule's own policy must hold (default skip).
  const policy = overlap ? OVERLAP_POLICIES[overlap] : description.policies.overlap;
  await client.schedule.getHandle(id).trigger(policy);
  return policy;
}

export async function pauseTeamSchedule(client: Client, id: string, reason?: string): Promise<void> {
  try {
    await client.schedule.getHandle(id).pause(reason ?? 'paused with teamrun schedule pause');
  } catch (err) {
    throw scheduleFailure(id, err);
  }
}

export async function unpauseTeamSchedule(client: Client, id: string, reason?: string): Promise<void> {
  try {
    await client.schedule.getHandle(id).unpause(reason ?? 'unpaused with teamrun schedule unpause');
  } catch (err) {
    throw scheduleFailure(id, err);
  }
}

export async function deleteTeamSchedule(client: Client, id: string): Promise<void> {
  try {
    await client.schedule.getHandle(id).delete();
  } catch (err) {
    throw scheduleFailure(id, err);
  }
}

/** The overlap name of a Temporal policy (`SKIP` -> `skip`). */
export function overlapName(policy: ScheduleOverlapPolicy): string {
  const entry = Object.entries(OVERLAP_POLICIES).find(([, value]) => value === policy);
  return entry ? entry[0] : String(policy).toLowerCase();
}
