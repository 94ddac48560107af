import type { BudgetPoint } from './model';
export interface ChartOptions {
    title: string;
    points: BudgetPoint[];
    value: (p: BudgetPoint) => number;
    format: (n: number) => string;
    limit: number | undefined;
    start: number;
    end: number;
}
/**
 * A small inline SVG step chart of one budget dimension over the run's time, with its limit as a
 * dashed line. Pure string output: the report must open with no network and no library.
 */
export declare function stepChart(o: ChartOptions): string;
export declare function escapeXml(text: string): string;
