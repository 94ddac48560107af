/**
 * `teamrun adjudications` (the records, and `--verify`: the decision chain recomputed from history)
 * and `teamrun bind-case` (an adjudication bound to an outside case, once).
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { teamRunResult } from '../../client';
import type { AdjudicationRecord } from '../../contract';
import { CliError, printJson, userFile } from '../../operator/context';
import { chainHistory, verifyRunChain, type ChainEvent, type ChainReport } from '../../report/decision-chain';
import { readRun } from '../../report/load';
import { actorOption, defaultActor, recordsTable, update, withRun } from './control';

/** The most bytes of a history file `--history` reads. */
const HISTORY_FILE_MAX_BYTES = 256 * 1024 * 1024;

type HistoryJson = { events?: ChainEvent[] } | { history?: { events?: ChainEvent[] } };

/** A history file: `temporal workflow show --output json` (`{ events }`), a recorded fixture, or a list of them. */
function historiesFromFile(file: string): Array<{ events?: ChainEvent[] }> {
  const json = userFile(() => {
    const bytes = readFileSync(file);
    if (bytes.length > HISTORY_FILE_MAX_BYTES) {
      throw new CliError(`--history: ${file}: ${bytes.length} bytes, over the ${HISTORY_FILE_MAX_BYTES}-byte bound`);
    }
    try {
      return JSON.parse(bytes.toString('utf8')) as HistoryJson | HistoryJson[];
    } catch (err) {
      throw new CliError(`--history: ${file}: not JSON: ${(err as Error).message}`);
    }
  });
  const list = Array.isArray(json) ? json : [json];
  const histories = list.map((h) => ('history' in h && h.history ? h.history : (h as { events?: ChainEvent[] })));
  if (!histories.every((h) => Array.isArray(h.events))) {
    throw new CliError(
      `--history: ${file}: not a history (expected { "events": [...] }, as temporal workflow show writes)`,
    );
  }
  return histories;
}

function chainText(report: ChainReport, source: string): string {
  const counts =
    `${report.fromHistory} from their requests in history, ${report.fromRecord} the run's own (from its record)` +
    `${report.unverifiable ? `, ${report.unverifiable} not verifiable here` : ''}` +
    `${report.unreadable ? `, ${report.unreadable} update payload(s) unreadable (encrypted?)` : ''}`;
  if (report.ok) return `decision chain ok (${source}): ${report.seq} decision(s), head ${report.head}\n  ${counts}\n`;
  const b = report.broken!;
  return (
    `decision chain BROKEN (${source}) at decision ${b.seq} (decisionId ${b.decisionId}): ${b.why}\n` +
    `  expected ${b.expected}\n  found    ${b.found}\n  ${report.verified} decision(s) before it verified; ${counts}\n`
  );
}

interface AdjudicationsOptions {
  json?: boolean;
  verify?: boolean;
  history?: string;
}

export function registerCases(program: Command): void {
  program
    .command('adjudications <workflowId>')
    .description('adjudication records of a run: pending (decision "pending") and decided; --verify checks the chain')
    .option('--json', 'print the full records (or, with --verify, the verdict) as JSON')
    .option('--verify', "recompute the decision chain from the run's history and say where it breaks")
    .option('--history <file>', 'with --verify: read this history file (temporal workflow show --output json)')
    .action(async (workflowId: string, options: AdjudicationsOptions, command: Command) => {
      if (options.history && !options.verify) throw new CliError('--history reads a history for --verify only');
      if (options.verify) {
        const report = options.history
          ? verifyRunChain(chainHistory(historiesFromFile(options.history)))
          : await withRun(command, workflowId, async (handle, client) => {
              const { description, histories } = await readRun(client, workflowId);
              const history = chainHistory(histories as Array<{ events?: ChainEvent[] }>);
              if (description.status.name !== 'RUNNING') return verifyRunChain(history);
              const [records, status] = await Promise.all([handle.adjudications(), handle.status()]);
              return verifyRunChain(history, { records, head: status.decisionChain });
            });
        if (options.json) printJson(report);
        else process.stdout.write(chainText(report, options.history ?? `run ${workflowId}`));
        if (!report.ok) process.exitCode = 1;
        return;
      }
      const records: AdjudicationRecord[] = await withRun(command, workflowId, async (handle) => {
        const { status } = await handle.describe();
        return status.name === 'RUNNING' ? handle.adjudications() : (await teamRunResult(handle)).adjudications;
      });
      if (options.json) {
        printJson(records);
        return;
      }
      const pending = records.filter((r) => r.decision === null).length;
      process.stdout.write(records.length ? `${recordsTable(records)}\n${pending} pending\n` : 'no adjudications\n');
    });

  program
    .command('bind-case <workflowId> <key> <caseId>')
    .description('bind the pending adjudication of a task to an outside case (a ticket), once')
    .addOption(actorOption())
    .option('--json', 'print the verdict as JSON')
    .action(async (workflowId: string, key: string, caseId: string, options: { actor?: string; json?: boolean }, c) => {
      const request = { key, caseId, actor: options.actor ?? defaultActor() };
      const verdict = await withRun(c as Command, workflowId, (handle) => update(handle, 'bindCase', request));
      if (options.json) printJson(verdict);
      else process.stdout.write(`${key}: case ${caseId} ${verdict.idempotent ? 'was bound already' : 'bound'}\n`);
    });
}
