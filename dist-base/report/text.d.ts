import type { RunReport } from './model';
/** The report as readable text, for the terminal: the same story as the HTML, without the chart. */
export declare function renderReportText(report: RunReport): string;
