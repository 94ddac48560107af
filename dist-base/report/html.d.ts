import type { AttemptRecord, RunReport } from './model';
/** Web UI links of a run and of one attempt (its ActivityTaskScheduled event), when the report knows the UI. */
export declare function webUiLinks(report: Pick<RunReport, 'webUi' | 'workflowId' | 'runIds'>): {
    run: string | null;
    attempt: (a: AttemptRecord) => string | null;
};
/**
 * The report as ONE self-contained HTML page: inline CSS, inline script, inline SVG, no network.
 * Sections carry `data-kind` (tasks / control / budget); the filter buttons show one kind or all.
 * The timeline's own buttons show one kind of step (model calls, tool calls, the run's) or all.
 * The report's data is embedded as JSON too (`#teamrun-report`), for anyone who wants to script it.
 */
export declare function renderReportHtml(report: RunReport): string;
