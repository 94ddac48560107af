import { type AttemptProcesses } from './process-tree';
import { type ExecutorContext } from './types';
/**
 * Runs `command` under `/bin/sh -c`, contained (a cgroup of its own where the worker may create
 * one, else its process group and the descendants a /proc scan finds), with an allowlisted
 * environment. Output is read as bounded byte streams. Nothing the attempt starts outlives it:
 * when the shell exits, when the attempt is cancelled or times out, everything it started is
 * ended (TERM, then KILL after `killGraceMs`).
 */
export declare const shellExecutor: import("./define").DefinedExecutor<{
    command: string;
    cwd?: string | undefined;
    env?: Record<string, string | {
        fromWorkerEnv: string;
    }> | undefined;
    timeoutMs?: number | undefined;
}>;
/**
 * The containment of an attempt's processes (shell and agent-cli tasks): a cgroup or a process-tree
 * watch, per `worker.shell.cgroup`; one that cannot be had fails the attempt for good.
 */
export declare function containProcesses(ctx: ExecutorContext): AttemptProcesses;
