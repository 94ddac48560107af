import { readFileSync } from 'node:fs';
import { namingSources, parsePlanText, resolveTeamPlanFiles } from './team-files';
import { validatePlan, type PlanValidation, type ValidateOptions } from './validate';

/**
 * Reads a plan file (YAML or JSON; JSON is YAML) and validates it. JSON is read as JSON first:
 * the YAML parser takes seconds on a plan of a megabyte.
 */
export function loadPlanFile(file: string, options: ValidateOptions = {}): PlanValidation & { raw?: unknown } {
  let raw: unknown;
  try {
    const text = readFileSync(file, 'utf8');
    raw = parsePlanText(text);
  } catch (err) {
    return {
      ok: false,
      problems: [{ path: file, code: 'unreadable', message: (err as Error).message.split('\n')[0] }],
    };
  }
  // Team tasks' plan files become inline plans here, before anything is checked (team-files.ts).
  const { problems, sources } = resolveTeamPlanFiles(raw, file);
  if (problems.length > 0) return { ok: false, problems, raw };
  const validation = validatePlan(raw, options);
  if (validation.ok) return { ...validation, raw };
  return { ok: false, problems: namingSources(validation.problems, sources), raw };
}
