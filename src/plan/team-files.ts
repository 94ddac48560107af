/**
 * Plan files for `team` tasks (docs/teams.md, "Plan files"): `executor: { kind: team, planFile: ./child.yaml }` (or
 * `plan: ./child.yaml`, a string) names a plan file, read relative to the file that names it. `teamrun validate` and
 * `teamrun start` resolve every one into the inline plan before anything is checked or started: the workflow only
 * ever sees inline plans. Files nest at most `maxTeamDepth` levels (a file naming itself ends there too).
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { PLAN_LIMITS } from './limits';
import type { PlanProblem } from './problem';
import { TEAM_DEPTH_DEFAULT, TEAM_DEPTH_MAX } from './team';

/** Where a resolved team plan came from: problems under `path` are that file's. */
export interface TeamPlanSource {
  path: string;
  key: string;
  file: string;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads a plan file's text as JSON or YAML; JSON is read as JSON first (the YAML parser is slow on big files). */
export function parsePlanText(text: string): unknown {
  if (/^\s*[{[]/.test(text)) {
    try {
      return JSON.parse(text);
    } catch {
      // YAML is a superset: a flow-style YAML file starts the same way.
    }
  }
  return parseYaml(text);
}

/**
 * Replaces, in place, every team task's plan file with the plan it holds, recursively; `file` is the plan's own file
 * (files it names are read relative to it). Returns the problems (a file missing, unreadable, not a plan, too
 * large, nested too deep), each naming the task key and the file, and where each resolved plan came from.
 */
export function resolveTeamPlanFiles(
  plan: unknown,
  file: string,
): { problems: PlanProblem[]; sources: TeamPlanSource[] } {
  const out = { problems: [] as PlanProblem[], sources: [] as TeamPlanSource[] };
  if (isObject(plan)) walk(plan, file, '', 0, boundOf(plan, TEAM_DEPTH_MAX), out);
  return out;
}

function boundOf(plan: Json, above: number): number {
  const own = typeof plan.maxTeamDepth === 'number' ? plan.maxTeamDepth : TEAM_DEPTH_DEFAULT;
  return Math.min(own, above);
}

function walk(
  plan: Json,
  file: string,
  prefix: string,
  depth: number,
  max: number,
  out: { problems: PlanProblem[]; sources: TeamPlanSource[] },
): void {
  if (!Array.isArray(plan.tasks)) return;
  plan.tasks.forEach((task: unknown, i) => {
    if (!isObject(task) || !isObject(task.executor) || task.executor.kind !== 'team') return;
    const executor = task.executor;
    const key = typeof task.key === 'string' ? task.key : `#${i}`;
    const at = `${prefix}tasks[${i}].executor`;
    let named: string | null = null;
    if (typeof executor.planFile === 'string' && executor.plan === undefined) named = executor.planFile;
    else if (typeof executor.plan === 'string' && executor.planFile === undefined) named = executor.plan;
    else if (executor.planFile !== undefined) {
      const message = `team task "${key}" (${file}): give planFile (a file name) or plan (inline), not both`;
      out.problems.push({ path: `${at}.planFile`, code: 'team_plan_file', message });
      return;
    }
    if (named !== null) {
      const resolved = path.resolve(path.dirname(file), named);
      const problem = (message: string) =>
        out.problems.push({
          path: `${at}.${executor.planFile !== undefined ? 'planFile' : 'plan'}`,
          code: 'team_plan_file',
          message: `team task "${key}" in ${file}: plan file ${resolved}: ${message}`,
        });
      if (depth + 1 > max) {
        problem(`a team run at level ${depth + 1} is past maxTeamDepth ${max} (plan files nest no deeper)`);
        return;
      }
      const read = readPlanObject(resolved);
      if (typeof read === 'string') {
        problem(read);
        return;
      }
      task.executor = { kind: 'team', plan: read };
      out.sources.push({ path: `${at}.plan`, key, file: resolved });
      walk(read, resolved, `${at}.plan.`, depth + 1, boundOf(read, max), out);
      return;
    }
    if (isObject(executor.plan)) walk(executor.plan, file, `${at}.plan.`, depth + 1, boundOf(executor.plan, max), out);
  });
}

/** The plan a file holds, or why it holds none. */
function readPlanObject(file: string): Json | string {
  let text: string;
  try {
    const size = statSync(file).size;
    if (size > PLAN_LIMITS.maxPlanBytes) return `${size} bytes, past the ${PLAN_LIMITS.maxPlanBytes} bytes of a plan`;
    text = readFileSync(file, 'utf8');
  } catch (err) {
    return (err as Error).message.split('\n')[0];
  }
  let parsed: unknown;
  try {
    parsed = parsePlanText(text);
  } catch (err) {
    return `not YAML or JSON: ${(err as Error).message.split('\n')[0]}`;
  }
  return isObject(parsed) ? parsed : 'does not hold a plan (a mapping with name and tasks)';
}

/** A problem under a resolved plan names the file it came from (the deepest one that holds it). */
export function namingSources(problems: PlanProblem[], sources: TeamPlanSource[]): PlanProblem[] {
  if (sources.length === 0) return problems;
  return problems.map((p) => {
    let from: TeamPlanSource | null = null;
    for (const s of sources) if (p.path.startsWith(`${s.path}.`) && s.path.length > (from?.path.length ?? -1)) from = s;
    return from ? { ...p, message: `${p.message} (in ${from.file}, the plan of team task "${from.key}")` } : p;
  });
}
