"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.STATUS_COLOURS = exports.GRAPH_MAX_TASKS = void 0;
exports.layoutTaskGraph = layoutTaskGraph;
exports.graphSvg = graphSvg;
exports.graphDot = graphDot;
exports.graphText = graphText;
const chart_1 = require("./chart");
/** Past this many tasks the report leaves the drawing out (layout time grows fast); DOT and text still list them. */
exports.GRAPH_MAX_TASKS = 400;
const NODE = { width: 190, height: 46 };
const TITLE_CHARS = 26;
/** Colours per task status, shared by the SVG, the DOT output and the report's legend. */
exports.STATUS_COLOURS = {
    succeeded: { fill: '#e3f5e9', stroke: '#2f9e55' },
    failed: { fill: '#fbe5e5', stroke: '#d64545' },
    adjudication: { fill: '#efe7fc', stroke: '#7a4fd6' },
    leased: { fill: '#e2eefb', stroke: '#2b7bd6' },
    ready: { fill: '#ffffff', stroke: '#5d6776' },
    blocked: { fill: '#f5f7fa', stroke: '#8a94a6' },
    skipped: { fill: '#eceef2', stroke: '#8a94a6' },
    unknown: { fill: '#ffffff', stroke: '#5d6776' },
};
const SYMBOLS = {
    succeeded: '✔',
    failed: '✘',
    adjudication: '?',
    leased: '▶',
    ready: '○',
    blocked: '·',
    skipped: '⊘',
};
const colours = (status) => exports.STATUS_COLOURS[status ?? 'unknown'] ?? exports.STATUS_COLOURS.unknown;
const clip = (text, max) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
// The package is an ES module that also ships a CommonJS build; this project compiles to CommonJS.
const { Graph, layout } = require('@dagrejs/dagre');
/** Lays the task graph out left to right with dagre: dependencies on the left, dependents on the right. */
function layoutTaskGraph(tasks) {
    const g = new Graph();
    g.setGraph({ rankdir: 'LR', nodesep: 18, ranksep: 56, marginx: 8, marginy: 8 });
    g.setDefaultEdgeLabel(() => ({}));
    const known = new Set(tasks.map((t) => t.key));
    for (const task of tasks)
        g.setNode(task.key, { ...NODE });
    for (const task of tasks)
        for (const dep of task.dependsOn)
            if (known.has(dep))
                g.setEdge(dep, task.key);
    layout(g);
    const ranks = [...new Set(tasks.map((t) => g.node(t.key).rank ?? 0))].sort((a, b) => a - b);
    const placed = tasks.map((task) => {
        const node = g.node(task.key);
        return { ...task, x: node.x, y: node.y, stage: ranks.indexOf(node.rank ?? 0) + 1 };
    });
    const edges = g.edges().map((e) => ({ from: e.v, to: e.w, points: g.edge(e).points ?? [] }));
    const { width = 0, height = 0 } = g.graph();
    return { width, height, tasks: placed, edges };
}
/**
 * The graph as inline SVG: a box per task (its title, its key, its status colour), an arrow per
 * dependency. `href(key)` makes each box a link (the report links to the task's timeline row).
 */
function graphSvg(graph, href) {
    const edges = graph.edges
        .map((e) => {
        const d = e.points.map((p, i) => `${i ? 'L' : 'M'}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ');
        return `<path class="edge" data-from="${(0, chart_1.escapeXml)(e.from)}" data-to="${(0, chart_1.escapeXml)(e.to)}" d="${d}" marker-end="url(#arrow)"/>`;
    })
        .join('');
    const nodes = graph.tasks
        .map((t) => {
        const { fill, stroke } = colours(t.status);
        const x = t.x - NODE.width / 2;
        const y = t.y - NODE.height / 2;
        const box = `<g class="node" data-task="${(0, chart_1.escapeXml)(t.key)}" data-status="${(0, chart_1.escapeXml)(t.status ?? 'unknown')}">` +
            `<title>${(0, chart_1.escapeXml)(`${t.title} (${t.key}): ${t.status ?? 'not run'}`)}</title>` +
            `<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${NODE.width}" ` +
            `height="${NODE.height}" rx="7" fill="${fill}" stroke="${stroke}" stroke-width="2"/>` +
            `<text class="node-title" x="${(x + 10).toFixed(1)}" ` +
            `y="${(y + 19).toFixed(1)}">${(0, chart_1.escapeXml)(clip(t.title, TITLE_CHARS))}</text>` +
            `<text class="node-key" x="${(x + 10).toFixed(1)}" ` +
            `y="${(y + 36).toFixed(1)}">${(0, chart_1.escapeXml)(clip(t.key, 22))}${t.status ? ` · ${(0, chart_1.escapeXml)(t.status)}` : ''}</text>` +
            `</g>`;
        return href ? `<a href="${(0, chart_1.escapeXml)(href(t.key))}">${box}</a>` : box;
    })
        .join('');
    return (`<svg class="graph" viewBox="0 0 ${Math.ceil(graph.width)} ${Math.ceil(graph.height)}" ` +
        `width="${Math.ceil(graph.width)}" height="${Math.ceil(graph.height)}" role="img" aria-label="task graph">` +
        `<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" ` +
        `markerWidth="7" markerHeight="7" orient="auto-start-reverse">` +
        `<path d="M0,0 L10,5 L0,10 z" fill="#8a94a6"/></marker></defs>` +
        edges +
        nodes +
        `</svg>`);
}
/** Graphviz DOT of the graph (`dot -Tsvg` draws it), with the same colours and titles. */
function graphDot(tasks, name) {
    const q = (text) => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, ' ')}"`;
    const lines = [
        `digraph ${q(name)} {`,
        '  rankdir=LR;',
        '  node [shape=box, style="rounded,filled", fontname="Helvetica"];',
    ];
    for (const t of tasks) {
        const { fill, stroke } = colours(t.status);
        const label = `${t.title}\\n${t.key}${t.status ? ` · ${t.status}` : ''}`;
        lines.push(`  ${q(t.key)} [label="${label.replace(/"/g, '\\"')}", fillcolor=${q(fill)}, color=${q(stroke)}];`);
    }
    const known = new Set(tasks.map((t) => t.key));
    for (const t of tasks)
        for (const dep of t.dependsOn)
            if (known.has(dep))
                lines.push(`  ${q(dep)} -> ${q(t.key)};`);
    lines.push('}');
    return lines.join('\n');
}
/** The graph for a terminal: stage by stage (what can run at once), each task with what it waits on. */
function graphText(tasks) {
    const graph = layoutTaskGraph(tasks);
    const byStage = new Map();
    for (const t of graph.tasks)
        byStage.set(t.stage, [...(byStage.get(t.stage) ?? []), t]);
    const keyWidth = Math.min(32, Math.max(...tasks.map((t) => t.key.length), 3));
    const titleWidth = Math.min(40, Math.max(...tasks.map((t) => t.title.length), 5));
    const lines = [];
    for (const [stage, list] of [...byStage.entries()].sort((a, b) => a[0] - b[0])) {
        lines.push(`stage ${stage}`);
        list.sort((a, b) => a.y - b.y);
        list.forEach((t, i) => {
            const branch = i === list.length - 1 ? '└─' : '├─';
            const symbol = t.status ? `${SYMBOLS[t.status] ?? '·'} ` : '';
            const waits = t.dependsOn.length ? `  ← ${t.dependsOn.join(', ')}` : '';
            const status = t.status ? `  ${`[${t.status}]`.padEnd(14)}` : '';
            const key = clip(t.key, 32).padEnd(keyWidth);
            const title = clip(t.title, 40).padEnd(titleWidth);
            lines.push(`  ${branch} ${symbol}${key}  ${title}${status}${waits}`.trimEnd());
        });
    }
    return lines.join('\n');
}
