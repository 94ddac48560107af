/** Small text helpers shared by what prints runs, tasks and budgets: the CLI's commands and the reports. */
export declare function count(n: number): string;
/** Dollars with cents, or more digits when the amount is below a cent. */
export declare function usd(n: number): string;
export declare function duration(ms: number): string;
/** `value of limit` when there is a limit, `value` otherwise. */
export declare function ofLimit(value: string, limit: string | null): string;
/**
 * Text from a run (titles, reasons, errors, actors) made safe to print on a terminal: every
 * control character is shown as an escape (`\x1b`), so nobody's title can move the cursor,
 * recolour the screen or hide the line after it.
 */
export declare function printable(text: string): string;
export declare function oneLine(text: string, max: number): string;
/** A plain left-aligned table: a header row, then one row per record. */
export declare function table(headers: string[], rows: string[][]): string;
