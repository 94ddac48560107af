export type { RunReport, AttemptRecord, AttemptOutcome, TaskReport, ControlRecord, LeaseRecord, AdjudicationRow, BudgetPoint, } from './model';
export { loadRunAttempts, loadRunReport, ReportError } from './load';
export { buildReport } from './build';
export { readHistories } from './history';
export { renderReportText } from './text';
export { renderReportHtml } from './html';
