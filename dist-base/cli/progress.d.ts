import type { StatusView as RunStatusView } from '../contract';
/** The part of the `status` query a progress display reads (a run result can supply it too). */
export type ProgressInput = Pick<RunStatusView, 'state' | 'stats' | 'budget' | 'pendingAdjudications'>;
/** What a progress display shows of a run: settled tasks out of all, and the rest as one line. */
export interface ProgressParts {
    done: number;
    total: number;
    detail: string;
}
export declare function progressParts(status: ProgressInput): ProgressParts;
/** The progress of a run as one line of text (what the plain display prints). */
export declare function progressText(status: ProgressInput): string;
export interface Progress {
    update(status: ProgressInput): void;
    /** Ends the display; the bar stays on screen with its last values. */
    stop(): void;
}
export interface ProgressOptions {
    stream?: NodeJS.WriteStream;
    /** Plain lines even on a terminal (false); default: the live bar when `stream` is a TTY. */
    live?: boolean;
    /** Plain mode prints a changed line at most this often (default 1000 ms), so logs stay short. */
    plainIntervalMs?: number;
}
/**
 * Shows a run's progress: a live bar redrawn in place on a terminal; otherwise (CI logs, pipes)
 * plain lines, printed only when something changed.
 */
export declare function createProgress(options?: ProgressOptions): Progress;
