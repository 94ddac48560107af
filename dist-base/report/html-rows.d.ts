import type { AttemptRecord, RunReport, TaskReport } from './model';
export declare function ganttRow(task: TaskReport, report: RunReport, end: number): string;
/** Five ticks under the timeline, in time since the run started. */
export declare function axisRow(span: number): string;
export declare function attemptRow(task: TaskReport, a: AttemptRecord, firstOfTask: boolean, at: (t: number) => string, uiUrl: string | null): string;
/** What the attempt printed, folded: the tail of stdout and stderr, with how much was cut. */
export declare function logsRow(a: AttemptRecord): string;
