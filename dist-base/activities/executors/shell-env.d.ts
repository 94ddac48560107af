import type { TeamrunConfig } from '../../config/config';
import type { ShellSpec } from '../../plan/schema';
import { type ExecutorContext } from './types';
type ShellConfig = TeamrunConfig['worker']['shell'];
/** What a plan may give as an environment value: a literal, or a worker variable named in `worker.shell.secretEnv`. */
export type PlanEnvValue = NonNullable<ShellSpec['env']>[string];
/** The worker's variables every task gets (when set), whatever the config says. */
export declare const BASE_ENV: string[];
/** `*` and `?` globs over names (`AWS_*`); anything else matches literally. */
export declare function globMatcher(patterns: ReadonlyArray<string>): (name: string) => boolean;
/**
 * The environment of one shell attempt: an allowlist. The worker's PATH, HOME, LANG, LC_*,
 * TMPDIR and TZ, the names `worker.shell.passEnv` lists, the plan's literal values, the values
 * the plan takes from `worker.shell.secretEnv` by name, the worker's `TEMPORAL_ADDRESS` and
 * `TEMPORAL_NAMESPACE`, and the attempt's `TEAMRUN_*` variables, with its gateway's socket and
 * secret; PATH starts with the directory of the worker's own `teamrun`.
 */
export declare function shellEnvironment(planEnv: Readonly<Record<string, PlanEnvValue>> | undefined, ctx: ExecutorContext, extra: Record<string, string>): Record<string, string>;
/** The variable a process of this attempt carries, by which the worker finds it if it detached. */
export declare function environmentMarker(ctx: ExecutorContext): string;
/**
 * Dependency outputs, for the task: always as a file (`TEAMRUN_INPUTS_FILE`, removed when the
 * attempt ends), and inline (`TEAMRUN_INPUTS`) while small, since the environment has a size limit.
 */
export declare function writeInputs(outputs: Record<string, unknown>, inlineMaxBytes: number, inbox?: unknown[]): {
    env: Record<string, string>;
    remove(): void;
};
/**
 * The directory the command runs in, checked: it exists, and it is inside `worker.shell.cwdRoot`
 * when one is set (relative paths are taken from there; symlinks and `..` cannot leave it).
 */
export declare function resolveCwd(cwd: string | undefined, shell: ShellConfig): string | undefined;
/**
 * `worker.shell.allowCommands`: a command runs only if one pattern matches all of it. A pattern
 * written `/.../` is a regular expression; any other is a glob where `*` matches any text.
 */
export declare function checkCommand(command: string, patterns: ReadonlyArray<string> | undefined): void;
export {};
