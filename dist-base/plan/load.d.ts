import { type PlanValidation, type ValidateOptions } from './validate';
/**
 * Reads a plan file (YAML or JSON; JSON is YAML) and validates it. JSON is read as JSON first:
 * the YAML parser takes seconds on a plan of a megabyte.
 */
export declare function loadPlanFile(file: string, options?: ValidateOptions): PlanValidation & {
    raw?: unknown;
};
