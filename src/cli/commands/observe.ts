import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { RUN_STATUS_FILTERS, listTeamRuns, parseSince, type RunSummary } from '../../client/runs';
import { loadRunAttempts } from '../../report';
import { messageEdges } from '../../report/control-records';
import { graphDot, graphSvg, graphText, layoutTaskGraph, type GraphTask, type MessageEdge } from '../../report/graph';
import type { AttemptRecord } from '../../report/model';
import { CliError, printJson, withClient } from '../../operator/context';
import { count, duration, table, usd } from '../../format';
import { intOption } from '../../operator/options';
import { readPlan } from '../../operator/plan-file';
import { readTranscript, renderTranscript } from '../../operator/agent-transcript';
import { RunReader } from '../../operator/run-view';

/** `graph`, `logs` and `runs`: what an operator looks at besides one run's status. */
export function registerObserve(program: Command): void {
  program
    .command('graph <runOrPlan>')
    .description(
      "the task graph of a run (with each task's status) or of a plan file: stages in the terminal, or DOT / SVG",
    )
    .option('--dot', 'print Graphviz DOT (`dot -Tsvg` draws it)')
    .option('--svg', 'print an SVG laid out by dagre')
    .action(async (target: string, options: { dot?: boolean; svg?: boolean }, command: Command) => {
      const { name, tasks, messages } = existsSync(target) ? planGraph(target) : await runGraph(command, target);
      process.stdout.write(`${renderGraph(name, tasks, options, messages)}\n`);
    });

  program
    .command('logs <workflowId> <key>')
    .description(
      "the tail of what a task's attempt printed (stdout, stderr) " +
        "and the links it printed; the latest attempt unless --attempt; an agent's transcript after it",
    )
    .option('--attempt <n>', 'this attempt number of the task', intOption)
    .option('--all', 'every attempt of the task')
    .option('--json', 'print the attempts with their logs as JSON')
    .action(
      async (
        workflowId: string,
        key: string,
        options: { attempt?: number; all?: boolean; json?: boolean },
        command: Command,
      ) => {
        await withClient(command, async (client) => {
          const report = await loadRunAttempts(client, workflowId);
          const task = report.tasks.find((t) => t.key === key);
          if (!task || !task.attempts.length) {
            const keys = report.tasks.filter((t) => t.attempts.length).map((t) => t.key);
            throw new CliError(
              `run ${workflowId} has no attempt of task ` +
                `"${key}"${keys.length ? ` (tasks with attempts: ${keys.slice(0, 20).join(', ')})` : ''}`,
            );
          }
          let attempts = task.attempts;
          if (options.attempt !== undefined) {
            attempts = attempts.filter((a) => a.attempt === options.attempt);
            if (!attempts.length) {
              throw new CliError(
                `task "${key}" of run ${workflowId} has no attempt ${options.attempt} ` +
                  `(attempts: ${task.attempts.map((a) => a.attempt).join(', ')})`,
              );
            }
          } else if (!options.all) {
            attempts = attempts.slice(-1);
          }
          const journal = await readTranscript(client, workflowId, key);
          if (options.json) printJson(journal ? { attempts, transcript: journal } : attempts);
          else {
            const blocks = [...attempts.map(renderAttemptLogs), ...(journal ? [renderTranscript(journal)] : [])];
            process.stdout.write(`${blocks.join('\n\n')}\n`);
          }
        });
      },
    );

  program
    .command('runs')
    .description(
      'recent team runs from visibility: team, state, progress, pending adjudications, budget used, start and duration',
    )
    .option('--team <name>', 'only runs of this team (TeamName)')
    .option('--status <list>', `only runs in these states, comma-separated (${RUN_STATUS_FILTERS.join(', ')})`)
    .option('--since <when>', 'only runs started since: 7d, 12h, 30m, or a date')
    .option('--limit <n>', 'at most this many runs, newest first', intOption, 50)
    .option('--json', 'print JSON')
    .action(
      async (
        options: { team?: string; status?: string; since?: string; limit: number; json?: boolean },
        command: Command,
      ) => {
        await withClient(command, async (client) => {
          const runs = await listTeamRuns(client, runsFilter(options));
          if (options.json) printJson(runs);
          else process.stdout.write(runs.length ? `${runsTable(runs)}\n` : 'no runs match\n');
        });
      },
    );
}

/** The options `runs` and `report --team` share, as a filter. */
export function runsFilter(options: { team?: string; status?: string; since?: string; limit?: number }) {
  return {
    team: options.team,
    statuses: options.status ? options.status.split(',').filter(Boolean) : undefined,
    since: options.since ? parseSince(options.since) : undefined,
    limit: options.limit,
  };
}

interface Graph {
  name: string;
  tasks: GraphTask[];
  messages: MessageEdge[];
}

function planGraph(file: string): Graph {
  const { plan } = readPlan(file);
  return {
    name: plan.name,
    messages: [],
    tasks: plan.tasks.map((t) => ({ key: t.key, title: t.title ?? t.key, status: null, dependsOn: t.dependsOn })),
  };
}

/** A run's graph: its tasks (each with the task that added it) and, from its history, who messaged whom. */
async function runGraph(command: Command, workflowId: string): Promise<Graph> {
  return withClient(command, async (client) => {
    const reader = new RunReader(client, workflowId);
    const overview = await reader.overview();
    const tasks: GraphTask[] = [];
    const page = 2_000;
    for (let offset = 0; ; offset += page) {
      const views = await reader.tasks({ offset, limit: page });
      tasks.push(
        ...views.map((v) => ({
          key: v.key,
          title: v.title,
          status: v.status,
          dependsOn: v.dependsOn,
          parent: v.parent,
        })),
      );
      if (views.length < page) break;
    }
    const { control } = await loadRunAttempts(client, workflowId);
    return { name: overview.name ?? workflowId, tasks, messages: messageEdges(control) };
  });
}

/** The graph as the options ask: DOT, SVG, or stages for the terminal (the default). */
export function renderGraph(
  name: string,
  tasks: GraphTask[],
  options: { dot?: boolean; svg?: boolean },
  messages: MessageEdge[] = [],
): string {
  if (options.dot) return graphDot(tasks, name, messages);
  if (options.svg) return graphSvg(layoutTaskGraph(tasks, messages));
  return `${name}: ${tasks.length} task(s)\n${graphText(tasks, messages)}`;
}

function renderAttemptLogs(a: AttemptRecord): string {
  const head =
    `${a.activityId} · attempt ${a.attempt} ` +
    `· ${a.outcome}${a.detail ? ` (${a.detail})` : ''}${a.worker ? ` · ${a.worker}` : ''}`;
  const lines = [head];
  for (const link of a.links) lines.push(`link: ${link.label ? `${link.label} ` : ''}${link.url}`);
  if (!a.logs) {
    lines.push(
      a.outcome === 'running' || a.outcome === 'scheduled'
        ? '(still running: its logs are recorded when the attempt ends)'
        : '(no logs recorded for this attempt: its executor or worker kept none)',
    );
    return lines.join('\n');
  }
  const stream = (name: string, text: string, total: number) => {
    const kept = Buffer.byteLength(text);
    const cut = total > kept ? ` (last ${count(kept)} of ${count(total)} bytes)` : ` (${count(total)} bytes)`;
    lines.push(`--- ${name}${cut} ---`);
    if (text) lines.push(text.replace(/\n$/, ''));
  };
  stream('stdout', a.logs.stdout, a.logs.stdoutBytes);
  stream('stderr', a.logs.stderr, a.logs.stderrBytes);
  return lines.join('\n');
}

function runsTable(runs: RunSummary[]): string {
  const now = Date.now();
  return table(
    ['run', 'team', 'state', 'progress', 'pending', 'budget used', 'started', 'took'],
    runs.map((r) => [
      r.workflowId,
      r.team ?? '-',
      r.state,
      r.progress ? `${r.progress.done}/${r.progress.total}` : '?',
      r.pendingAdjudications === null ? '-' : String(r.pendingAdjudications),
      r.budgetUsed
        ? `${count(r.budgetUsed.attempts)} att, ${count(r.budgetUsed.tokens)} ` +
          `tok, ${usd(r.budgetUsed.usd)}${r.budgetStopped ? ' (stopped)' : ''}`
        : '?',
      new Date(r.startedAt).toISOString().replace('T', ' ').slice(0, 19),
      `${duration((r.closedAt ?? now) - r.startedAt)}${r.closedAt ? '' : ' (open)'}`,
    ]),
  );
}
