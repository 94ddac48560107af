import type { ValidateOptions } from '../plan/validate';
import type { TeamPlan, TeamPlanInput } from '../plan/schema';
import type { TeamrunConfig } from '../config/config';
/**
 * What `teamrun validate` and `teamrun start` both check a plan file against, from the config
 * and `--kind`: the executor kinds known (built in, `worker.customKinds`, `--kind`), and whether
 * the worker restricts commands (then a plan's `env` may not choose the program).
 */
export declare function planChecks(config: TeamrunConfig, kinds?: ReadonlyArray<string>): ValidateOptions;
/** `--kind`, as both commands declare it. */
export declare const KIND_OPTION_HELP: string;
/**
 * Reads and checks a plan file; every problem, with its path, becomes one CliError. Returns the
 * plan as written (defaults are the workflow's to fill) and as validated.
 */
export declare function readPlan(file: string, options?: ValidateOptions): {
    input: TeamPlanInput;
    plan: TeamPlan;
};
