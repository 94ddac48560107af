import { usageTokens } from '../team/budget';
import { count, duration, oneLine, printable, usd } from '../format';
import { messageEdges } from './control-records';
import type { AttemptRecord, RunReport } from './model';

/** The report as readable text, for the terminal: the same story as the HTML, without the chart. */
export function renderReportText(report: RunReport): string {
  const at = (t: number) => `+${duration(Math.max(0, t - report.startedAt))}`;
  const lines: string[] = [];
  const attempts = report.tasks.reduce((n, t) => n + t.attempts.length, 0);
  const elapsed = (report.closedAt ?? report.generatedAt) - report.startedAt;
  lines.push(
    `run ${report.workflowId}${report.team ? ` (team ${report.team})` : ''}: ${report.state}`,
    `  started ${new Date(report.startedAt).toISOString()}, ` +
      `${report.closedAt ? `closed after ${duration(elapsed)}` : `open for ${duration(elapsed)}`}` +
      `${report.runIds.length > 1 ? `, ${report.runIds.length} runs (continue-as-new)` : ''}`,
  );
  if (report.stats) {
    const s = report.stats;
    lines.push(
      `  tasks   ${s.succeeded + s.failed + s.skipped}/${s.total} done: ${s.succeeded} ` +
        `succeeded, ${s.failed} failed, ${s.skipped} skipped, ${s.adjudication} in adjudication`,
    );
  }
  const n = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
  lines.push(
    `  work    ${n(attempts, 'attempt')}, ${n(report.leases.length, 'lease lost', 'leases lost')}` +
      `, ${n(report.control.length, 'control message')}`,
  );
  for (const note of report.notes) lines.push(`  note    ${note}`);

  lines.push('', 'tasks');
  for (const task of report.tasks) {
    lines.push(
      `  ${task.key}${task.title !== task.key ? ` "${task.title}"` : ''}` +
        `: ${task.status ?? '?'}, ${task.attempts.length} attempt(s)`,
    );
    for (const a of task.attempts) lines.push(`    ${attemptLine(a, at)}`);
    if (task.lastError && task.status !== 'succeeded') lines.push(`    last error: ${oneLine(task.lastError, 100)}`);
  }

  if (report.spawned.added > 0) {
    lines.push('', `added while running: ${n(report.spawned.added, 'task')}`);
    for (const { parent, children } of report.spawned.tree) lines.push(`  ${parent} -> ${children.join(', ')}`);
  }

  const messages = messageEdges(report.control);
  if (messages.length) {
    lines.push('', 'messages between tasks');
    for (const m of messages) lines.push(`  ${m.from} -> ${m.to}${m.count > 1 ? ` (${m.count} messages)` : ''}`);
  }

  lines.push('', 'leases');
  if (!report.leases.length) lines.push('  no lease expired');
  for (const l of report.leases) {
    lines.push(
      `  ${at(l.at)} ${l.key} token ${l.fencingToken} lease lost${l.worker ? ` (worker ${l.worker})` : ''}; ` +
        (l.next ? `re-leased as token ${l.next.fencingToken} at ${at(l.next.at)}` : 'not re-leased'),
    );
  }

  lines.push('', 'control');
  if (!report.control.length) lines.push('  no signals or updates');
  for (const c of report.control) {
    lines.push(
      `  ${at(c.at)} ${c.via} ${c.name}${c.actor ? ` by ${c.actor}` : ''}` +
        `${c.actor?.startsWith('task ') && c.identity ? ` (worker ${c.identity})` : ''}` +
        `: ${oneLine(c.summary, 90)}${c.verdict ? ` -> ${c.verdict}` : ''}`,
    );
  }

  lines.push('', 'adjudications');
  if (report.adjudications === null) lines.push('  unknown (no run state)');
  else if (!report.adjudications.length) lines.push('  none');
  for (const a of report.adjudications ?? []) {
    const decided = a.decision
      ? `${a.decision.decision} by ${a.decision.actor ?? '?'} ` +
        `at ${at(a.decision.decidedAt)}${a.decision.reason ? ` (${a.decision.reason})` : ''}`
      : 'PENDING';
    lines.push(
      `  ${a.key} token ${a.fencingToken}: ${a.code} ` +
        `at ${at(a.requestedAt)}${a.actor ? ` by ${a.actor}` : ''}${a.reason ? `: ${oneLine(a.reason, 60)}` : ''}` +
        ` -> ${decided}`,
    );
  }

  const { limits, used } = report.budget;
  const of = (value: string, max: string | null) => (max === null ? value : `${value} of ${max}`);
  lines.push(
    '',
    'budget',
    `  attempts ${of(count(used.attempts), limits.maxTasks === undefined ? null : count(limits.maxTasks))}` +
      ` · tokens ${of(count(used.tokens), limits.maxTokens === undefined ? null : count(limits.maxTokens))}` +
      ` · ${of(usd(used.usd), limits.maxUsd === undefined ? null : usd(limits.maxUsd))}` +
      (report.budget.stopped ? ` · stopped: ${report.budget.reason}` : ''),
  );
  // Every line holds text from the run (titles, reasons, actors): no control character reaches the terminal.
  return lines.map(printable).join('\n');
}

function attemptLine(a: AttemptRecord, at: (t: number) => string): string {
  const span =
    a.startedAt === null
      ? `scheduled ${at(a.scheduledAt)}`
      : `${at(a.startedAt)} -> ${a.endedAt === null ? 'now' : at(a.endedAt)}`;
  const took = a.startedAt !== null && a.endedAt !== null ? ` (${duration(a.endedAt - a.startedAt)})` : '';
  const usage = a.usage
    ? ` · ${count(usageTokens(a.usage))} tokens${a.usage.costUsd !== undefined ? ` ${usd(a.usage.costUsd)}` : ''}`
    : '';
  return (
    `#${a.attempt} ${a.activityId} ${a.holder}${a.worker ? ` @${a.worker}` : ''} ${span}${took}: ${a.outcome}` +
    `${a.detail ? ` (${oneLine(a.detail, 80)})` : ''}${usage}`
  );
}
