import type * as Dagre from '@dagrejs/dagre' with { 'resolution-mode': 'import' };
import { escapeXml as esc } from './chart';

/** One task of the graph: a plan's task (status null) or a run's, with its status. */
export interface GraphTask {
  key: string;
  title: string;
  status: string | null;
  dependsOn: string[];
  /** The task that added this one while the run ran (`addTasks`), if any. */
  parent?: string | null;
}

/** Messages one task sent another while the run ran (`sendMessage`), `count` of them. */
export interface MessageEdge {
  from: string;
  to: string;
  count: number;
}

/** What an arrow of the graph means: `to` waits on `from`, `from` added `to`, `from` messaged `to`. */
export type EdgeKind = 'dependency' | 'added' | 'message';

export interface PlacedTask extends GraphTask {
  x: number;
  y: number;
  /** 1-based stage: tasks in one stage can run at once as far as the graph goes. */
  stage: number;
}

export interface GraphLayout {
  width: number;
  height: number;
  tasks: PlacedTask[];
  edges: Array<{ from: string; to: string; kind: EdgeKind; count?: number; points: Array<{ x: number; y: number }> }>;
}

/** Past this many tasks the report leaves the drawing out (layout time grows fast); DOT and text still list them. */
export const GRAPH_MAX_TASKS = 400;

const NODE = { width: 190, height: 46 };
const TITLE_CHARS = 26;

/** Colours per task status, shared by the SVG, the DOT output and the report's legend. */
export const STATUS_COLOURS: Record<string, { fill: string; stroke: string }> = {
  succeeded: { fill: '#e3f5e9', stroke: '#2f9e55' },
  failed: { fill: '#fbe5e5', stroke: '#d64545' },
  adjudication: { fill: '#efe7fc', stroke: '#7a4fd6' },
  leased: { fill: '#e2eefb', stroke: '#2b7bd6' },
  ready: { fill: '#ffffff', stroke: '#5d6776' },
  blocked: { fill: '#f5f7fa', stroke: '#8a94a6' },
  skipped: { fill: '#eceef2', stroke: '#8a94a6' },
  unknown: { fill: '#ffffff', stroke: '#5d6776' },
};

const SYMBOLS: Record<string, string> = {
  succeeded: '✔',
  failed: '✘',
  adjudication: '?',
  leased: '▶',
  ready: '○',
  blocked: '·',
  skipped: '⊘',
};

const colours = (status: string | null) => STATUS_COLOURS[status ?? 'unknown'] ?? STATUS_COLOURS.unknown;
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

// The package is an ES module that also ships a CommonJS build; this project compiles to CommonJS.
const { Graph, layout } = require('@dagrejs/dagre') as typeof Dagre;

/** The added-by edges of `tasks`: each added task from the task that added it (both in the graph). */
function addedEdges(tasks: ReadonlyArray<GraphTask>): Array<{ from: string; to: string }> {
  const known = new Set(tasks.map((t) => t.key));
  return tasks.filter((t) => t.parent && known.has(t.parent)).map((t) => ({ from: t.parent!, to: t.key }));
}

/** Messages between two tasks of the graph (not to the coordinator, a slot or everyone). */
function knownMessages(tasks: ReadonlyArray<GraphTask>, messages: ReadonlyArray<MessageEdge>): MessageEdge[] {
  const known = new Set(tasks.map((t) => t.key));
  return messages.filter((m) => known.has(m.from) && known.has(m.to) && m.from !== m.to);
}

/**
 * The straight segment between two boxes' borders, along the line joining their centres: a
 * message's arrow, drawn over the layout (it does not order the tasks, so dagre does not place it).
 */
function between(a: { x: number; y: number }, b: { x: number; y: number }): Array<{ x: number; y: number }> {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const t = Math.min(dx ? NODE.width / 2 / Math.abs(dx) : Infinity, dy ? NODE.height / 2 / Math.abs(dy) : Infinity);
  const edge = Number.isFinite(t) ? Math.min(t, 0.5) : 0;
  return [
    { x: a.x + dx * edge, y: a.y + dy * edge },
    { x: b.x - dx * edge, y: b.y - dy * edge },
  ];
}

/**
 * Lays the task graph out left to right with dagre: dependencies on the left, dependents on the
 * right, an added task right of the task that added it; messages are drawn between the boxes.
 */
export function layoutTaskGraph(
  tasks: ReadonlyArray<GraphTask>,
  messages: ReadonlyArray<MessageEdge> = [],
): GraphLayout {
  const g = new Graph({ multigraph: true });
  g.setGraph({ rankdir: 'LR', nodesep: 18, ranksep: 56, marginx: 8, marginy: 8 });
  g.setDefaultEdgeLabel(() => ({}));
  const known = new Set(tasks.map((t) => t.key));
  for (const task of tasks) g.setNode(task.key, { ...NODE });
  for (const task of tasks)
    for (const dep of task.dependsOn) if (known.has(dep)) g.setEdge(dep, task.key, {}, 'dependency');
  for (const e of addedEdges(tasks)) g.setEdge(e.from, e.to, {}, 'added');
  layout(g);
  const ranks = [...new Set(tasks.map((t) => g.node(t.key).rank ?? 0))].sort((a, b) => a - b);
  const placed = tasks.map((task) => {
    const node = g.node(task.key);
    return { ...task, x: node.x, y: node.y, stage: ranks.indexOf(node.rank ?? 0) + 1 };
  });
  const edges: GraphLayout['edges'] = g.edges().map((e: Dagre.Edge) => ({
    from: e.v,
    to: e.w,
    kind: e.name === 'added' ? 'added' : 'dependency',
    points: g.edge(e).points ?? [],
  }));
  for (const m of knownMessages(tasks, messages)) {
    edges.push({ ...m, kind: 'message', points: between(g.node(m.from), g.node(m.to)) });
  }
  const { width = 0, height = 0 } = g.graph();
  return { width, height, tasks: placed, edges };
}

/** How each kind of arrow is drawn: a dependency solid grey, added-by dashed, a message dotted blue. */
const EDGE_STYLE: Record<EdgeKind, string> = {
  dependency: 'marker-end="url(#arrow)"',
  added: 'stroke-dasharray="6 4" marker-end="url(#arrow)"',
  message: 'stroke="#2b7bd6" stroke-dasharray="2 3" marker-end="url(#arrow-message)"',
};

/**
 * The graph as inline SVG: a box per task (its title, its key, its status colour), an arrow per
 * dependency, per added task (from the task that added it) and per pair of tasks that messaged.
 * `href(key)` makes each box a link (the report links to the task's timeline row).
 */
export function graphSvg(graph: GraphLayout, href?: (key: string) => string): string {
  const edges = graph.edges
    .map((e) => {
      const d = e.points.map((p, i) => `${i ? 'L' : 'M'}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ');
      const what =
        e.kind === 'message'
          ? `${e.from} messaged ${e.to}${e.count && e.count > 1 ? ` (${e.count} messages)` : ''}`
          : e.kind === 'added'
            ? `${e.from} added ${e.to}`
            : `${e.to} waits on ${e.from}`;
      return (
        `<path class="edge ${e.kind}" data-kind="${e.kind}" data-from="${esc(e.from)}" data-to="${esc(e.to)}" ` +
        `d="${d}" ${EDGE_STYLE[e.kind]}><title>${esc(what)}</title></path>`
      );
    })
    .join('');
  const nodes = graph.tasks
    .map((t) => {
      const { fill, stroke } = colours(t.status);
      const x = t.x - NODE.width / 2;
      const y = t.y - NODE.height / 2;
      const box =
        `<g class="node" data-task="${esc(t.key)}" data-status="${esc(t.status ?? 'unknown')}">` +
        `<title>${esc(`${t.title} (${t.key}): ${t.status ?? 'not run'}`)}</title>` +
        `<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${NODE.width}" ` +
        `height="${NODE.height}" rx="7" fill="${fill}" stroke="${stroke}" stroke-width="2"/>` +
        `<text class="node-title" x="${(x + 10).toFixed(1)}" ` +
        `y="${(y + 19).toFixed(1)}">${esc(clip(t.title, TITLE_CHARS))}</text>` +
        `<text class="node-key" x="${(x + 10).toFixed(1)}" ` +
        `y="${(y + 36).toFixed(1)}">${esc(clip(t.key, 22))}${t.status ? ` · ${esc(t.status)}` : ''}</text>` +
        `</g>`;
      return href ? `<a href="${esc(href(t.key))}">${box}</a>` : box;
    })
    .join('');
  return (
    `<svg class="graph" viewBox="0 0 ${Math.ceil(graph.width)} ${Math.ceil(graph.height)}" ` +
    `width="${Math.ceil(graph.width)}" height="${Math.ceil(graph.height)}" role="img" aria-label="task graph">` +
    `<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" ` +
    `markerWidth="7" markerHeight="7" orient="auto-start-reverse">` +
    `<path d="M0,0 L10,5 L0,10 z" fill="#8a94a6"/></marker>` +
    `<marker id="arrow-message" viewBox="0 0 10 10" refX="9" refY="5" ` +
    `markerWidth="7" markerHeight="7" orient="auto-start-reverse">` +
    `<path d="M0,0 L10,5 L0,10 z" fill="#2b7bd6"/></marker></defs>` +
    edges +
    nodes +
    `</svg>`
  );
}

/** Graphviz DOT of the graph (`dot -Tsvg` draws it), with the same colours, titles and kinds of arrow. */
export function graphDot(
  tasks: ReadonlyArray<GraphTask>,
  name: string,
  messages: ReadonlyArray<MessageEdge> = [],
): string {
  const q = (text: string) => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, ' ')}"`;
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
  for (const t of tasks) for (const dep of t.dependsOn) if (known.has(dep)) lines.push(`  ${q(dep)} -> ${q(t.key)};`);
  for (const e of addedEdges(tasks)) lines.push(`  ${q(e.from)} -> ${q(e.to)} [style=dashed, label="added"];`);
  for (const m of knownMessages(tasks, messages)) {
    const label = m.count > 1 ? `${m.count} messages` : 'message';
    lines.push(`  ${q(m.from)} -> ${q(m.to)} [style=dotted, color="#2b7bd6", constraint=false, label="${label}"];`);
  }
  lines.push('}');
  return lines.join('\n');
}

/**
 * The graph for a terminal: stage by stage (what can run at once), each task with what it waits on
 * and the task that added it; then who messaged whom.
 */
export function graphText(tasks: ReadonlyArray<GraphTask>, messages: ReadonlyArray<MessageEdge> = []): string {
  const graph = layoutTaskGraph(tasks);
  const byStage = new Map<number, PlacedTask[]>();
  for (const t of graph.tasks) byStage.set(t.stage, [...(byStage.get(t.stage) ?? []), t]);
  const keyWidth = Math.min(32, Math.max(...tasks.map((t) => t.key.length), 3));
  const titleWidth = Math.min(40, Math.max(...tasks.map((t) => t.title.length), 5));
  const lines: string[] = [];
  for (const [stage, list] of [...byStage.entries()].sort((a, b) => a[0] - b[0])) {
    lines.push(`stage ${stage}`);
    list.sort((a, b) => a.y - b.y);
    list.forEach((t, i) => {
      const branch = i === list.length - 1 ? '└─' : '├─';
      const symbol = t.status ? `${SYMBOLS[t.status] ?? '·'} ` : '';
      const waits =
        (t.dependsOn.length ? `  ← ${t.dependsOn.join(', ')}` : '') + (t.parent ? `  (added by ${t.parent})` : '');
      const status = t.status ? `  ${`[${t.status}]`.padEnd(14)}` : '';
      const key = clip(t.key, 32).padEnd(keyWidth);
      const title = clip(t.title, 40).padEnd(titleWidth);
      lines.push(`  ${branch} ${symbol}${key}  ${title}${status}${waits}`.trimEnd());
    });
  }
  const sent = knownMessages(tasks, messages);
  if (sent.length) lines.push('messages');
  sent.forEach((m, i) => {
    const branch = i === sent.length - 1 ? '└─' : '├─';
    lines.push(`  ${branch} ${m.from} → ${m.to}${m.count > 1 ? ` (${m.count} messages)` : ''}`);
  });
  return lines.join('\n');
}
