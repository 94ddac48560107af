import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { Usage } from '../../plan/schema';
import { listTeamRuns, type RunSummary } from '../../client/runs';
import { priceUsage } from '../../activities/pricing';
import { loadRunReport, renderReportHtml, renderReportText } from '../../report';
import { renderTeamHtml, type TeamRunRow } from '../../report/team';
import { renderTreeHtml, renderTreeText, type ChildReport } from '../../report/tree';
import { readTree, type TreeNode } from '../../operator/tree';
import type { Client } from '@temporalio/client';
import { CliError, printJson, userFile, withClient } from '../../operator/context';
import { intOption } from '../../operator/options';
import { localWebUi } from '../web-ui';
import { runsFilter } from './observe';

interface ReportOptions {
  html?: string;
  json?: boolean;
  team?: string;
  since?: string;
  status?: string;
  limit: number;
  webUi?: string;
}

export function registerReport(program: Command): void {
  program
    .command('report [workflowId]')
    .description(
      "a run's story from its history: the task graph, every attempt per task with " +
        'its logs, lease expiries, interruptions, adjudications, budget over time; ' +
        "with --team, one page with a runs x tasks grid linking to each run's report",
    )
    .option(
      '--html <file>',
      'write one self-contained HTML page (graph, timeline, filters, budget chart; opens offline)',
    )
    .option('--json', 'print the report data as JSON')
    .option('--team <name>', 'many runs: every recent run of this team in one grid (needs --html)')
    .option('--since <when>', 'with --team: runs started since (7d, 12h, a date); default 7d')
    .option('--status <list>', 'with --team: only runs in these states, comma-separated')
    .option('--limit <n>', 'with --team: at most this many runs, newest first', intOption, 50)
    .option(
      '--web-ui <url>',
      "base URL of the Temporal Web UI for links (default: the local dev server's, when the address is local)",
    )
    .action(async (workflowId: string | undefined, options: ReportOptions, command: Command) => {
      await withClient(command, async (client, config) => {
        const webUi = options.webUi ?? localWebUi(config);
        // An agent's turns are priced as its worker prices them, by the price table of this config.
        const price = (usage: Usage) => priceUsage(usage, config.prices)?.costUsd;
        if (options.team !== undefined) {
          if (!options.html) throw new CliError('report --team writes HTML: give --html <file>');
          await teamReport(client, options, options.html, { webUi, price });
          return;
        }
        if (!workflowId) throw new CliError('report: give a workflow id, or --team <name> for many runs');
        const report = await loadRunReport(client, workflowId, Date.now(), { webUi, price });
        const children = await childReports(client, workflowId, { webUi, price });
        if (options.html) {
          const file = options.html;
          const page = children.length ? renderTreeHtml(report, children) : renderReportHtml(report);
          userFile(() => writeFileSync(file, page));
          const attempts = report.tasks.reduce((n, t) => n + t.attempts.length, 0);
          const messages = report.control.length;
          const counts = `${report.tasks.length} tasks, ${attempts} attempts, ${messages} control messages`;
          process.stdout.write(`wrote ${path.resolve(file)}: ${counts}\n`);
        } else if (options.json) {
          printJson(children.length ? { ...report, children } : report);
        } else {
          process.stdout.write(`${children.length ? renderTreeText(report, children) : renderReportText(report)}\n`);
        }
      });
    });
}

/** The child runs' reports (team tasks), nested as the tree is, within the tree reader's bounds. */
async function childReports(
  client: Client,
  workflowId: string,
  options: Parameters<typeof loadRunReport>[3],
): Promise<ChildReport[]> {
  const tree = await readTree(client, workflowId).catch(() => null);
  const load = async (node: TreeNode): Promise<ChildReport[]> => {
    const out: ChildReport[] = [];
    for (const c of node.children) {
      if (!c.workflowId || c.key === null) continue;
      const report = await loadRunReport(client, c.workflowId, Date.now(), options);
      out.push({ key: c.key, path: c.path, report, children: await load(c) });
    }
    return out;
  };
  return tree ? load(tree) : [];
}

/** Writes each run's report beside the team page (in `<page>-runs/`) and the grid that links them. */
async function teamReport(
  client: Parameters<typeof loadRunReport>[0],
  options: ReportOptions,
  file: string,
  reading: { webUi: string | null; price: (usage: Usage) => number | undefined },
): Promise<void> {
  const { webUi } = reading;
  const runs: RunSummary[] = await listTeamRuns(client, runsFilter({ ...options, since: options.since ?? '7d' }));
  const dirName = `${path.basename(file, path.extname(file))}-runs`;
  const dir = path.join(path.dirname(file), dirName);
  userFile(() => mkdirSync(dir, { recursive: true }));
  const rows: TeamRunRow[] = [];
  for (const summary of runs) {
    try {
      const report = await loadRunReport(client, summary.workflowId, Date.now(), reading);
      const name = `${summary.workflowId.replace(/[^A-Za-z0-9._-]/g, '_')}.html`;
      writeFileSync(path.join(dir, name), renderReportHtml(report));
      rows.push({ summary, report, href: `${encodeURIComponent(dirName)}/${encodeURIComponent(name)}` });
    } catch (err) {
      rows.push({ summary, report: null, href: null, error: (err as Error).message });
    }
  }
  const namespace = client.options.namespace;
  const title = `teamrun: team ${options.team}${options.since ? ` since ${options.since}` : ' (last 7 days)'}`;
  const links = webUi ? { base: webUi.replace(/\/+$/, ''), namespace } : null;
  const page = renderTeamHtml({ title, rows, generatedAt: Date.now(), webUi: links });
  userFile(() => writeFileSync(file, page));
  process.stdout.write(
    `wrote ${path.resolve(file)}: ${rows.length} run(s) of team ${options.team}, each report in ${path.resolve(dir)}\n`,
  );
}
