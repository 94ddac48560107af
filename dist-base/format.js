"use strict";
/** Small text helpers shared by what prints runs, tasks and budgets: the CLI's commands and the reports. */
Object.defineProperty(exports, "__esModule", { value: true });
exports.count = count;
exports.usd = usd;
exports.duration = duration;
exports.ofLimit = ofLimit;
exports.printable = printable;
exports.oneLine = oneLine;
exports.table = table;
function count(n) {
    return n.toLocaleString('en-US');
}
/** Dollars with cents, or more digits when the amount is below a cent. */
function usd(n) {
    if (n !== 0 && Math.abs(n) < 0.01)
        return `$${n.toPrecision(2)}`;
    return `$${n.toFixed(2)}`;
}
function duration(ms) {
    if (ms < 1_000)
        return `${Math.round(ms)}ms`;
    const s = ms / 1_000;
    if (s < 60)
        return `${s.toFixed(1)}s`;
    const m = Math.floor(s / 60);
    if (m < 60)
        return `${m}m${String(Math.floor(s % 60)).padStart(2, '0')}s`;
    return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}
/** `value of limit` when there is a limit, `value` otherwise. */
function ofLimit(value, limit) {
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
function printable(text) {
    return text.replace(CONTROL, (c) => {
        if (c === '\n')
            return '\\n';
        if (c === '\t')
            return '\\t';
        if (c === '\r')
            return '\\r';
        const code = c.charCodeAt(0);
        return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
    });
}
function oneLine(text, max) {
    const flat = printable(text.replace(/[ \t\n\r\f\v]+/g, ' ').trim());
    return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
/** A plain left-aligned table: a header row, then one row per record. */
function table(headers, rows) {
    const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
    const line = (cells) => cells
        .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i])))
        .join('  ')
        .trimEnd();
    return [line(headers), ...rows.map(line)].join('\n');
}
