"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.stepChart = stepChart;
exports.escapeXml = escapeXml;
const W = 320;
const H = 120;
const PAD = { left: 8, right: 8, top: 22, bottom: 18 };
/**
 * A small inline SVG step chart of one budget dimension over the run's time, with its limit as a
 * dashed line. Pure string output: the report must open with no network and no library.
 */
function stepChart(o) {
    const values = o.points.map(o.value);
    const top = Math.max(o.limit ?? 0, ...values) || 1;
    const span = Math.max(1, o.end - o.start);
    const x = (t) => PAD.left + ((Math.min(Math.max(t, o.start), o.end) - o.start) / span) * (W - PAD.left - PAD.right);
    const y = (v) => H - PAD.bottom - (v / top) * (H - PAD.top - PAD.bottom);
    let path = `M${x(o.start).toFixed(1)},${y(0).toFixed(1)}`;
    let last = 0;
    for (const p of o.points) {
        const v = o.value(p);
        path += ` H${x(p.at).toFixed(1)} V${y(v).toFixed(1)}`;
        last = v;
    }
    path += ` H${x(o.end).toFixed(1)}`;
    const limit = o.limit === undefined
        ? ''
        : `<line class="limit" x1="${PAD.left}" x2="${W - PAD.right}" ` +
            `y1="${y(o.limit).toFixed(1)}" y2="${y(o.limit).toFixed(1)}"/>` +
            `<text class="limit-label" x="${W - PAD.right}" y="${(y(o.limit) - 3).toFixed(1)}" ` +
            `text-anchor="end">limit ${escapeXml(o.format(o.limit))}</text>`;
    return (`<svg class="chart" viewBox="0 0 ${W} ${H}" width="${W}" ` +
        `height="${H}" role="img" aria-label="${escapeXml(o.title)}">` +
        `<text class="chart-title" x="${PAD.left}" y="14">${escapeXml(o.title)}: ${escapeXml(o.format(last))}</text>` +
        `<line class="axis" x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(0)}" y2="${y(0)}"/>` +
        limit +
        `<path class="series" d="${path}"/>` +
        `<text class="tick" x="${PAD.left}" y="${H - 4}">0s</text>` +
        `<text class="tick" x="${W - PAD.right}" y="${H - 4}" text-anchor="end">${escapeXml(seconds(span))}</text>` +
        `</svg>`);
}
function seconds(ms) {
    return ms < 60_000 ? `${(ms / 1_000).toFixed(1)}s` : `${Math.round(ms / 60_000)}m`;
}
function escapeXml(text) {
    return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}
