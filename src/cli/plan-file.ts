import { loadPlanFile } from '../plan/load';
import type { ValidateOptions } from '../plan/validate';
import type { TeamPlan, TeamPlanInput } from '../plan/schema';
import { CliError } from './context';

/**
 * Reads and checks a plan file; every problem, with its path, becomes one CliError. Returns the
 * plan as written (defaults are the workflow's to fill) and as validated.
 */
export function readPlan(file: string, options: ValidateOptions = {}): { input: TeamPlanInput; plan: TeamPlan } {
  const result = loadPlanFile(file, options);
  if (!result.ok) {
    const lines = result.problems.map((p) => `  ${p.path}: ${p.message}`).join('\n');
    throw new CliError(`${file}: ${result.problems.length} problem(s)\n${lines}`);
  }
  return { input: result.raw as TeamPlanInput, plan: result.plan };
}
