import type { Redactor } from '../../redact';
import type { AttemptProcesses } from '../process-tree';
import type { AttemptLogs } from '../../interface';
export interface CliProcess {
    /** The binary (the worker's `command`) and its arguments. */
    argv: string[];
    stdin?: string;
    cwd: string | undefined;
    env: Record<string, string>;
    processes: AttemptProcesses;
    killGraceMs: number;
    /** A stream line longer than this is skipped (counted), never held whole. */
    maxLineBytes: number;
    logTailBytes: number;
    timeoutMs?: number;
    signal: AbortSignal;
    redactor: Redactor;
    /** Each stream line, in order; the next waits for this one (usage is charged before more is read). */
    onLine(line: string): Promise<void> | void;
}
export interface CliExit {
    code: number | null;
    signal: NodeJS.Signals | null;
    /** Why the worker stopped it (cancelled, timed out, the budget), or null when it ended on its own. */
    stoppedBy: string | null;
    spawnError?: string;
    longLines: number;
    logs: AttemptLogs;
}
/** Single-quoted for /bin/sh: the CLI starts through the shell kind's containment, which runs a command line. */
export declare function shellQuote(words: string[]): string;
/**
 * Runs an agent CLI contained as a shell task is (a cgroup or its process tree), reading its
 * stdout line by line as it comes. A stop (the attempt cancelled, its timeout, `stop()`) sends
 * SIGINT first, so the CLI can save its session, then kills everything after `killGraceMs`.
 */
export declare function runCli(how: CliProcess): {
    done: Promise<CliExit>;
    stop(why: string): void;
};
