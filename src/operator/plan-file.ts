import { loadPlanFile } from '../plan/load';
import type { ValidateOptions } from '../plan/validate';
import type { TeamPlan, TeamPlanInput } from '../plan/schema';
import type { TeamrunConfig } from '../config/config';
import { CliError } from './context';
import { schemaProblem } from '../activities/output-check';

/**
 * What `teamrun validate`, `start`, `schedule create` and MCP `start_run` check a plan against, from the config
 * and `--kind`: the executor kinds known (built in, `worker.customKinds`, `--kind`), and whether
 * the worker restricts commands (then a plan's `env` may not choose the program), the
 * flags each coding-agent CLI allows (`agent-cli` tasks' `args`), and that no task reserves more
 * than its run's budget before it starts.
 */
export function planChecks(config: TeamrunConfig, kinds: ReadonlyArray<string> = []): ValidateOptions {
  return {
    knownKinds: [...config.worker.customKinds, ...kinds],
    commandsRestricted: config.worker.shell.allowCommands !== undefined,
    planEnv: config.worker.shell.planEnv,
    agentClis: config.worker.agentClis,
    outputSchemaProblem: schemaProblem,
    budgetFits: true,
  };
}

/** `--kind`, as both commands declare it. */
export const KIND_OPTION_HELP =
  'custom executor kinds your workers register (also worker.customKinds in the config); ' +
  'any other unknown kind is a problem';

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
