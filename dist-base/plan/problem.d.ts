/**
 * A problem found in a plan: what validate.ts and the checks it calls (env-rules.ts,
 * unknown-keys.ts) each return. Its own file so those checks need not import validate.ts back.
 */
/** One thing wrong with a plan, with where it is (`tasks[3].dependsOn[0]`). */
export interface PlanProblem {
    path: string;
    code: string;
    message: string;
}
