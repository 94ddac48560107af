import type { PlanProblem } from './problem';
/**
 * What a plan's `env` may not set on a worker that restricts its commands
 * (`worker.shell.allowCommands`): variables that choose which program runs, or what a program
 * loads or executes on its own (a preload, an interpreter option, a startup file, a hook). Names
 * are compared upper-cased, since several tools read them in any case (npm's `npm_config_*`).
 * Without a restriction a plan runs any command, so its env can do no more.
 * docs/security.md lists these, and says why a denylist.
 */
export declare const PLAN_ENV_DENIED_NAMES: ReadonlySet<string>;
/** Families denied by prefix: every name that starts with one (`LD_PRELOAD`, `NODE_OPTIONS`, `PYTHONPATH`). */
export declare const PLAN_ENV_DENIED_PREFIXES: ReadonlyArray<string>;
/** Members of a denied family that choose no program and load nothing, and that plans commonly set. */
export declare const PLAN_ENV_FAMILY_EXCEPTIONS: ReadonlySet<string>;
/** Why a plan may not set `name` on a worker that restricts commands; null when it may. */
export declare function planEnvRefusal(name: string): string | null;
/** An executor as far as the env check reads it. */
interface EnvHolder {
    kind: string;
    env?: unknown;
}
/** The problems of one executor's `env`, each at `<at>.env.<NAME>`; only `shell` executors carry one. */
export declare function checkExecutorEnv(executor: EnvHolder, at: string): PlanProblem[];
/** Every executor of a plan, tasks and the idle hook, checked as a worker that restricts commands would. */
export declare function checkPlanEnv(plan: {
    tasks: ReadonlyArray<{
        executor: EnvHolder;
    }>;
    hooks?: {
        teammateIdle?: {
            executor: EnvHolder;
        };
    };
}): PlanProblem[];
export {};
