import type { RunSummary } from '../client/runs';
import type { RunReport } from './model';
/** One row of the grid: a run, its own report's file (relative to the page), and its tasks. */
export interface TeamRunRow {
    summary: RunSummary;
    report: RunReport | null;
    /** The run's report page, relative to the team page; null when it could not be written. */
    href: string | null;
    error?: string;
}
/**
 * Many runs at once, as one self-contained HTML page: a runs x tasks grid (a cell per task of
 * each run, coloured by its status, like Airflow's grid view), each cell linking to that task's
 * row in the run's own report, each run to its report and to the Web UI.
 */
export declare function renderTeamHtml(options: {
    title: string;
    rows: TeamRunRow[];
    generatedAt: number;
    webUi?: {
        base: string;
        namespace: string;
    } | null;
}): string;
