/**
 * Owns the packed form of a run's snapshot for continue-as-new, and packing it back. Pure and
 * lossless; what the snapshot holds is each part's business, not this file's.
 */
import { packPlan, sameJson, unpackPlan, type PackedPlan } from '../plan/packed';
import type { TeamRunSnapshot } from './run';
import { TASK_STATUSES, type TaskState } from './types';

/**
 * The form a run's snapshot travels in when the run continues as new. Temporal caps one
 * payload at 2 MB and the snapshot holds the whole plan, so it is packed: each task spec is a
 * row (its key, an index into a table of distinct executors, its dependencies as plan indices,
 * and only the fields that differ from their schema default), and each task's state is a row
 * of numbers (times relative to the run's start) instead of an object repeating every field
 * name. For a 10,000-task plan this takes the snapshot from about 4.8 MB to well under 1 MB.
 */
export interface PackedSnapshot extends Omit<TeamRunSnapshot, 'plan' | 'tasks'> {
  format: typeof FORMAT;
  plan: PackedPlan;
  /** One row per plan task, in plan order; see `PackedTask`. */
  tasks: PackedTask[];
}

/**
 * `[status, attempts, uncounted, fencingToken, holder, readyAt, startedAt, settledAt, rest]`:
 * `status` indexes TASK_STATUSES, `holder` is the teammate number (0 = none), times are
 * milliseconds after the run started, and `rest` holds every other field that is not at its
 * default. Trailing entries at their default are dropped (a task not started yet is `[0]`).
 */
export type PackedTask = [number, ...Array<number | string | null | Partial<TaskState>>];

const FORMAT = 1;

/** Row positions 1..7 and the value each takes when it is left out. */
const ROW_DEFAULTS: ReadonlyArray<number | null> = [0, 0, 0, 0, 0, null, null];

/** Fields kept in a row's `rest` only when they differ from these (the values `unpackTask` starts from). */
const REST_DEFAULTS: Record<string, unknown> = {
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

export function packSnapshot(snapshot: TeamRunSnapshot): PackedSnapshot {
  const { plan, tasks, ...rest } = snapshot;
  const t0 = snapshot.startedAt;
  return {
    ...rest,
    format: FORMAT,
    plan: packPlan(plan),
    tasks: tasks.map((task) => packTask(task, t0)),
  };
}

/** The snapshot a packed one was made from (a snapshot that was never packed passes through). */
export function unpackSnapshot(packed: PackedSnapshot | TeamRunSnapshot): TeamRunSnapshot {
  if (!('format' in packed)) return packed;
  if (packed.format !== FORMAT)
    throw new Error(`snapshot format ${String(packed.format)} is not one this worker reads (${String(FORMAT)})`);
  const { format: _format, plan, tasks, ...rest } = packed;
  if (tasks.length !== plan.tasks.length) {
    throw new Error(`snapshot holds ${tasks.length} task states for a plan of ${plan.tasks.length} tasks`);
  }
  const unpacked = unpackPlan(plan);
  return {
    ...rest,
    plan: unpacked,
    tasks: tasks.map((row, i) => unpackTask(row, unpacked.tasks[i].key, packed.startedAt)),
  };
}

function packTask(task: TaskState, t0: number): PackedTask {
  const slot =
    task.holder === null ? 0 : /^teammate-[1-9]\d*$/.test(task.holder) ? Number(task.holder.slice(9)) : task.holder;
  const row: PackedTask = [
    TASK_STATUSES.indexOf(task.status),
    task.attempts,
    task.uncounted,
    task.fencingToken,
    slot,
    task.readyAt - t0,
    task.startedAt === null ? null : task.startedAt - t0,
    task.settledAt === null ? null : task.settledAt - t0,
  ];
  const rest: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(task)) {
    if (ROW_FIELDS.has(field) || value === undefined) continue;
    if (field in REST_DEFAULTS && sameJson(value, REST_DEFAULTS[field])) continue;
    rest[field] = value;
  }
  if (Object.keys(rest).length > 0) {
    row.push(rest as Partial<TaskState>);
    return row;
  }
  while (row.length > 1 && row[row.length - 1] === ROW_DEFAULTS[row.length - 2]) row.pop();
  return row;
}

function unpackTask(row: PackedTask, key: string, t0: number): TaskState {
  const at = <T>(position: number): T => (position < row.length ? row[position] : ROW_DEFAULTS[position - 1]) as T;
  const holder = at<number | string>(4);
  const startedAt = at<number | null>(6);
  const settledAt = at<number | null>(7);
  const task: TaskState = {
    key,
    status: TASK_STATUSES[row[0]],
    attempts: at<number>(1),
    uncounted: at<number>(2),
    fencingToken: at<number>(3),
    current: null,
    holder: holder === 0 ? null : typeof holder === 'number' ? `teammate-${holder}` : holder,
    previousLease: null,
    readyAt: t0 + at<number>(5),
    startedAt: startedAt === null ? null : t0 + startedAt,
    settledAt: settledAt === null ? null : t0 + settledAt,
    lastError: null,
    skipReason: null,
    usage: { inputTokens: 0, outputTokens: 0, cacheTokens: 0, costUsd: 0 },
  };
  return row.length > 8 ? Object.assign(task, row[8]) : task;
}
