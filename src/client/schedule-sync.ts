import path from 'node:path';
import type { Client } from '@temporalio/client';
import type { ScheduleConfigSchema, TeamrunConfig } from '../config/config';
import { loadPlanFile } from '../plan/load';
import { formatProblems, type ValidateOptions } from '../plan/validate';
import type { TeamPlanInput } from '../plan/schema';
import type { z } from 'zod';
import {
  ScheduleError,
  createTeamSchedule,
  deleteTeamSchedule,
  describeTeamSchedule,
  fingerprint,
  listTeamSchedules,
  parseEvery,
  declaredTiming,
  recordedAction,
  scheduleOwner,
  updateTeamSchedule,
  type TeamScheduleSpec,
} from './schedules';

type DeclaredSchedule = z.infer<typeof ScheduleConfigSchema>;

/** One thing sync did (or, in a dry run, would do) to one schedule. */
export interface SyncStep {
  op: 'create' | 'update' | 'unchanged' | 'delete' | 'conflict';
  id: string;
  detail: string;
}

/**
 * Reads `schedules:` from the config into full specs; plan paths are relative to the config
 * file. Every plan is validated before anything is touched (with `checks`: the CLI passes what `start` checks), so
 * a bad one changes nothing.
 */
export function declaredSchedules(
  config: TeamrunConfig & { file?: string | null },
  checks: ValidateOptions = {},
): TeamScheduleSpec[] {
  const base = config.file ? path.dirname(config.file) : process.cwd();
  const problems: string[] = [];
  const specs: TeamScheduleSpec[] = [];
  const seen = new Set<string>();
  config.schedules.forEach((declared: DeclaredSchedule, i) => {
    const where = `schedules[${i}] (${declared.id})`;
    if (seen.has(declared.id)) problems.push(`${where}: duplicate schedule id`);
    seen.add(declared.id);
    const file = path.resolve(base, declared.plan);
    const loaded = loadPlanFile(file, checks);
    if (!loaded.ok) {
      problems.push(`${where}: plan ${file}:\n${indent(formatProblems(loaded.problems))}`);
      return;
    }
    try {
      specs.push({
        id: declared.id,
        plan: loaded.raw as TeamPlanInput,
        ...(declared.cron !== undefined ? { cron: declared.cron } : { everyMs: parseEvery(declared.every!) }),
        overlap: declared.overlap,
        paused: declared.paused,
        ...(declared.timezone ? { timezone: declared.timezone } : {}),
        taskQueue: config.connection.taskQueue,
      });
    } catch (err) {
      problems.push(`${where}: ${(err as Error).message}`);
    }
  });
  if (problems.length)
    throw new ScheduleError('invalid_spec', `schedules in ${config.file ?? 'config'}:\n${problems.join('\n')}`);
  return specs;
}

const indent = (text: string) => text.replace(/^/gm, '    ');

/**
 * Works out what sync must do: create declared schedules that are missing, update those whose
 * fingerprint changed, and (with `prune`) delete schedules `schedule sync` created for this task
 * queue that are no longer declared. Schedules teamrun did not create are never touched.
 */
export async function planSync(
  client: Client,
  declared: TeamScheduleSpec[],
  options: { prune: boolean; taskQueue: string },
): Promise<SyncStep[]> {
  const steps: SyncStep[] = [];
  for (const spec of declared) {
    let description;
    try {
      description = await describeTeamSchedule(client, spec.id);
    } catch (err) {
      if (err instanceof ScheduleError && err.code === 'not_found') {
        steps.push({ op: 'create', id: spec.id, detail: `team ${spec.plan.name}, ${timing(spec)}` });
        continue;
      }
      throw err;
    }
    if (!scheduleOwner(description.memo)) {
      steps.push({
        op: 'conflict',
        id: spec.id,
        detail: 'a schedule with this id exists and was not created by teamrun; left alone',
      });
    } else if (recordedAction(description).fingerprint === fingerprint(spec)) {
      steps.push({ op: 'unchanged', id: spec.id, detail: `team ${spec.plan.name}, ${timing(spec)}` });
    } else {
      steps.push({ op: 'update', id: spec.id, detail: `team ${spec.plan.name}, ${timing(spec)}` });
    }
  }
  if (options.prune) {
    const wanted = new Set(declared.map((s) => s.id));
    for (const row of await listTeamSchedules(client)) {
      if (wanted.has(row.id) || row.owner?.source !== 'sync' || row.owner.taskQueue !== options.taskQueue) continue;
      steps.push({ op: 'delete', id: row.id, detail: 'created by schedule sync and no longer declared' });
    }
  }
  return steps;
}

function timing(spec: TeamScheduleSpec): string {
  return `${declaredTiming(spec)}, overlap ${spec.overlap}${spec.paused ? ', paused' : ''}`;
}

/** Carries out the steps `planSync` worked out. */
export async function applySync(client: Client, declared: TeamScheduleSpec[], steps: SyncStep[]): Promise<void> {
  const byId = new Map(declared.map((s) => [s.id, s]));
  for (const step of steps) {
    if (step.op === 'create') await createTeamSchedule(client, byId.get(step.id)!, 'sync');
    else if (step.op === 'update') await updateTeamSchedule(client, byId.get(step.id)!, 'sync');
    else if (step.op === 'delete') await deleteTeamSchedule(client, step.id);
  }
}
