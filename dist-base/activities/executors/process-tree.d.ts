import { TeamrunError } from '../../errors';
/**
 * Everything one attempt starts, so that all of it can be stopped, whatever it did to detach.
 *
 * - `cgroup`: the attempt's shell joins a cgroup (v2) of its own before it runs the command, and
 *   every process it starts stays in it (setsid, double forks and reparenting included); the end
 *   of the attempt kills the cgroup (`cgroup.kill`). Needs a writable cgroup v2 hierarchy (root,
 *   or a delegated subtree).
 * - `process-tree`: the attempt's process group, plus every descendant a scan of /proc saw
 *   (by parent, process group or session, rescanned every `SCAN_EVERY_MS`), plus, when the
 *   attempt ends, any process started since the attempt that still carries its environment
 *   marker. A process that detaches between two scans and also clears its environment can escape.
 *
 * Scans read /proc asynchronously: a worker's event loop (and so its heartbeats) never waits on them.
 */
export interface AttemptProcesses {
    readonly mechanism: 'cgroup' | 'process-tree';
    /** `/bin/sh` arguments that run `command` inside the containment. */
    argv(command: string): string[];
    /** The shell's pid, once spawned. */
    started(pid: number): void;
    signal(signal: AttemptSignal): Promise<void>;
    /** Whether any process the attempt started still runs. */
    alive(): Promise<boolean>;
    /** Stops tracking and removes the cgroup (call after everything is gone). */
    dispose(): void;
}
export type CgroupMode = 'auto' | 'off' | 'required';
/** SIGINT is an agent CLI's polite stop (it saves its session); TERM a shell's; KILL the last word. */
export type AttemptSignal = 'SIGINT' | 'SIGTERM' | 'SIGKILL';
export declare class ContainmentError extends TeamrunError {
    readonly code = "TeamShellContainment";
}
/** The containment for one attempt: a cgroup when this worker may create one, else a process-tree watch. */
export declare function containAttempt(mode: CgroupMode, environmentMarker: string): AttemptProcesses;
