/**
 * A tree of teams in the terminal: `status` and `watch` print it under a run that has `team` tasks, `tasks --tree`
 * nests each child's tasks under its team task. What is read is src/operator/tree.ts's.
 */
import type { Client } from '@temporalio/client';
import type { TaskView } from '../contract';
import { oneLine } from '../format';
import { RunReader } from '../operator/run-view';
import { levelCounts, readTree, type TreeNode } from '../operator/tree';
import { statsLine } from './render';

function nodeLine(node: TreeNode): string {
  const task = node.key === null ? '' : `${node.key} [${node.taskStatus}]  `;
  const stats = node.stats ? `  ${statsLine(node.stats)}` : '';
  const error = node.error ? `  (not read: ${oneLine(node.error, 120)})` : '';
  const id = node.workflowId ? `  ${node.workflowId}` : '';
  return `${task}${node.path}  ${node.state}${stats}${id}${error}`;
}

/** The tree, one line per run (indented by level), then the counts per level. Empty when the run has no team task. */
export function renderTree(root: TreeNode): string {
  if (root.teamTasks === 0) return '';
  const lines = ['tree of teams:'];
  const walk = (node: TreeNode, indent: string, last: boolean, top: boolean) => {
    lines.push(top ? `  ${nodeLine(node)}` : `  ${indent}${last ? '└─ ' : '├─ '}${nodeLine(node)}`);
    const below = top ? '' : `${indent}${last ? '   ' : '│  '}`;
    node.children.forEach((c, i) => walk(c, below, i === node.children.length - 1 && node.more === 0, false));
    if (node.more > 0) lines.push(`  ${below}└─ … and ${node.more} more team task(s)`);
  };
  walk(root, '', true, true);
  lines.push('per level (runs read):');
  for (const l of levelCounts(root)) {
    const tasks = l.runs ? `  ${statsLine(l.stats)}` : '';
    lines.push(`  level ${l.level}: ${l.runs} run(s), ${l.teamTasks} team task(s)${tasks}`);
  }
  return `${lines.join('\n')}\n`;
}

/** How often `watch` reads a running tree again: each read asks every listed child run for its status. */
const TREE_POLL_MS = 2_000;

/**
 * `watch` on a run with team tasks: every couple of seconds it reads the tree below the run (as `status` does) and
 * prints the counts of each level below it when they changed, so a tree's progress shows while it runs.
 */
export class TreeFollower {
  private nextAt = 0;
  private last = '';

  constructor(
    private readonly client: Client,
    private readonly workflowId: string,
  ) {}

  /** The lines to print now (none while nothing changed, or the run has no team task); `teamTasks` from its status. */
  async poll(teamTasks: number, now = Date.now()): Promise<string[]> {
    if (teamTasks === 0 || now < this.nextAt) return [];
    this.nextAt = now + TREE_POLL_MS;
    const levels = levelCounts(await readTree(this.client, this.workflowId)).slice(1);
    const lines = levels.map(
      (l) => `tree level ${l.level}: ${l.runs} run(s), ${l.teamTasks} team task(s)  ${statsLine(l.stats)}`,
    );
    const text = lines.join('\n');
    if (text === this.last) return [];
    this.last = text;
    return lines;
  }
}

export interface TaskTreeOptions {
  /** Levels of child runs to open below the run. */
  depth: number;
  /** Tasks listed per run. */
  limit: number;
}

function taskLine(t: TaskView): string {
  const holder = t.holder ? `  ${t.holder}` : '';
  const note = t.lastError ? `  ${oneLine(t.lastError, 80)}` : '';
  return `${t.key}  ${t.status}  attempts ${t.attempts}  token ${t.fencingToken}${holder}${note}`;
}

/** `tasks --tree`: the run's tasks, and under each team task the tasks of its child run, level by level. */
export async function renderTaskTree(client: Client, workflowId: string, options: TaskTreeOptions): Promise<string> {
  const lines: string[] = [];
  const walk = async (id: string, indent: string, level: number) => {
    const reader = new RunReader(client, id);
    let tasks: TaskView[];
    try {
      tasks = await reader.tasks({ offset: 0, limit: options.limit + 1 });
    } catch (err) {
      lines.push(`${indent}(run ${id} not read: ${oneLine((err as Error).message, 160)})`);
      return;
    }
    for (const t of tasks.slice(0, options.limit)) {
      lines.push(`${indent}${taskLine(t)}${t.child ? `  -> ${t.child}` : ''}`);
      if (t.child && level < options.depth) await walk(t.child, `${indent}    `, level + 1);
    }
    if (tasks.length > options.limit) lines.push(`${indent}… more tasks: page with --offset/--limit on ${id}`);
  };
  await walk(workflowId, '', 0);
  return `${lines.join('\n')}\n`;
}
