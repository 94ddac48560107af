import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { ReportError, loadRunReport, renderReportHtml, renderReportText } from '../../report';
import { CliError, clientFrom, printJson } from '../context';

export function registerReport(program: Command): void {
  program
    .command('report <workflowId>')
    .description("a run's story from its history: every attempt per task, lease expiries, interruptions, adjudications, budget over time")
    .option('--html <file>', 'write one self-contained HTML page (timeline, filters, budget chart; opens offline)')
    .option('--json', 'print the report data as JSON')
    .action(async (workflowId: string, options: { html?: string; json?: boolean }, command: Command) => {
      const { client } = await clientFrom(command);
      try {
        const report = await loadRunReport(client, workflowId).catch((err: unknown) => {
          throw err instanceof ReportError ? new CliError(err.message) : err;
        });
        if (options.html) {
          writeFileSync(options.html, renderReportHtml(report));
          const attempts = report.tasks.reduce((n, t) => n + t.attempts.length, 0);
          process.stdout.write(`wrote ${path.resolve(options.html)}: ${report.tasks.length} tasks, ${attempts} attempts, ${report.control.length} control messages\n`);
        } else if (options.json) {
          printJson(report);
        } else {
          process.stdout.write(`${renderReportText(report)}\n`);
        }
      } finally {
        await client.connection.close();
      }
    });
}
