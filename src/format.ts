/** Small text helpers shared by what prints runs, tasks and budgets: the CLI's commands and the reports. */

/** A number with thousands separators, as `toLocaleString('en-US')` writes it (integers without ICU: it is slow). */
export function count(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}

/** Dollars with cents, or more digits when the amount is below a cent. */
export function usd(n: number): string {
  if (n !== 0 && Math.abs(n) < 0.01) return `$${n.toPrecision(2)}`;
  return `$${n.toFixed(2)}`;
}

export function duration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)}ms`;
  const s = ms / 1_000;
  if (s < 60) return `${s.toFixed(1)}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(Math.floor(s % 60)).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/**
 * The Web UI's summary of a run, fixed when it starts: what it started with, since tasks added while it
 * runs never reach it (its current details count them).
 */
export function runSummary(plan: { name: string; tasks: unknown[]; teammates?: number }, schedule?: string): string {
  const tasks = plan.tasks.length;
  const teammates = plan.teammates ?? 2;
  return (
    `team run ${plan.name}${schedule ? ` (schedule ${schedule})` : ''}: started with ${count(tasks)} ` +
    `task${tasks === 1 ? '' : 's'}, ${teammates} teammate${teammates === 1 ? '' : 's'}`
  );
}

/** `value of limit` when there is a limit, `value` otherwise. */
export function ofLimit(value: string, limit: string | null): string {
  return limit === null ? value : `${value} of ${limit}`;
}

/** Control characters a terminal would act on (C0, DEL, C1), line separators and bidi overrides. */
// oxlint-disable-next-line no-control-regex -- finding control characters is this pattern's purpose
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text from a run (titles, reasons, errors, actors) made safe to print on a terminal: every
 * control character is shown as an escape (`\x1b`), so nobody's title can move the cursor,
 * recolour the screen or hide the line after it.
 */
export function printable(text: string): string {
  return text.replace(CONTROL, (c) => {
    if (c === '\n') return '\\n';
    if (c === '\t') return '\\t';
    if (c === '\r') return '\\r';
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

export function oneLine(text: string, max: number): string {
  const flat = printable(text.replace(/[ \t\n\r\f\v]+/g, ' ').trim());
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** A plain left-aligned table: a header row, then one row per record. */
export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
}
