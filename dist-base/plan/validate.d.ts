import { type TaskSpec, type TeamPlan } from './schema';
import type { PlanProblem } from './problem';
export type { PlanProblem };
export type PlanValidation = {
    ok: true;
    plan: TeamPlan;
} | {
    ok: false;
    problems: PlanProblem[];
};
export declare function formatPath(path: ReadonlyArray<PropertyKey>): string;
export declare function formatProblems(problems: PlanProblem[]): string;
export interface ValidateOptions {
    /**
     * Custom executor kinds the caller knows a worker runs. Given (as `teamrun validate` gives
     * it), any other kind that is not built in is a problem with a did-you-mean; left out (as in
     * the workflow, which cannot know its workers), any well-formed kind passes.
     */
    knownKinds?: Iterable<string>;
    /**
     * The worker restricts its commands (`worker.shell.allowCommands`): a plan's `env` may then not
     * set what chooses the program or what it loads (env-rules.ts). The workflow cannot know it;
     * the worker checks again when an attempt starts.
     */
    commandsRestricted?: boolean;
}
/** Parses a plan and checks its graph; returns every problem found, not only the first. */
export declare function validatePlan(input: unknown, options?: ValidateOptions): PlanValidation;
/**
 * Governance of `activity` tasks: no worker of teamrun's guards a foreign task queue, so the run
 * itself allows only the queues its plan lists in `activityQueues`.
 */
export declare function checkActivityTasks(plan: Pick<TeamPlan, 'activityQueues' | 'budget'>, tasks: ReadonlyArray<TaskSpec>, pathOf?: (i: number) => string): PlanProblem[];
/**
 * An approval's `approvers` narrow `governance.operators`: an approver who is not an operator
 * could never decide it, so the plan says so up front.
 */
export declare function checkApprovers(plan: Pick<TeamPlan, 'governance' | 'tasks'>): PlanProblem[];
