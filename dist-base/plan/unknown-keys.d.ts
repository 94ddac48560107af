import type { PlanProblem } from './problem';
/**
 * A field the schema does not know, one problem per field at its own path, with a did-you-mean
 * from the fields of the same object (`tasks[0].depends_on` -> `dependsOn`).
 */
export declare function unknownFieldProblems(input: unknown, path: ReadonlyArray<PropertyKey>, keys: ReadonlyArray<string>, formatPath: (path: ReadonlyArray<PropertyKey>) => string): PlanProblem[];
