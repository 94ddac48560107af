import type { TeamRun } from '../team/run';

/** How many pending adjudications and running attempts the details list by name. */
const LISTED = 5;

/**
 * The short markdown the Web UI shows as the run's current details: where the run is, what
 * waits for a human (and how to decide it), what runs now, and the budget.
 */
export function currentDetails(run: TeamRun, now: number): string {
  const status = run.status(now);
  const { stats, budget } = status;
  const done = stats.succeeded + stats.failed + stats.skipped;
  const lines = [
    `**${status.name}** · ${status.state}`,
    '',
    `- tasks: ${done}/${stats.total} done (${stats.succeeded} succeeded, ${stats.failed} failed, ${stats.skipped} skipped), ${stats.running} running`,
    `- progress: ${bar(done, stats.total)}`,
    `- adjudication: ${status.pendingAdjudications} pending`,
  ];
  const pending = run.adjudicationsView().filter((a) => a.decision === null);
  if (run.cancelling) {
    lines.push(
      pending.length && status.state === 'awaiting_adjudication'
        ? `- cancel requested: nothing new starts; closes as Canceled once the ${pending.length} pending adjudication(s) below are decided`
        : '- cancel requested: nothing new starts; closes as Canceled when the stopped attempts settle',
    );
  }
  for (const a of pending.slice(0, LISTED)) {
    lines.push(`- waiting: \`${a.key}\` token ${a.fencingToken}: ${a.code}${a.actor ? ` by ${a.actor}` : ''}${a.reason ? ` (${a.reason})` : ''}`);
  }
  if (pending.length > LISTED) lines.push(`- waiting: and ${pending.length - LISTED} more (query \`adjudications\`)`);
  if (pending.length) lines.push('- decide: send the `adjudicate` update { key, decision: retry|accept|reject, decisionId }');
  const claims = run.activeClaims();
  if (claims.length) {
    const shown = claims.slice(0, LISTED).map((c) => `\`${c.activityId}\` (${c.holder}${c.interrupted ? ', interrupted' : ''})`);
    lines.push(`- running: ${shown.join(', ')}${claims.length > LISTED ? ` and ${claims.length - LISTED} more` : ''}`);
  }
  lines.push(`- budget: ${budgetLine(budget)}`);
  return lines.join('\n');
}

function bar(done: number, total: number): string {
  const width = 20;
  const filled = total === 0 ? width : Math.round((done / total) * width);
  return `${'▰'.repeat(filled)}${'▱'.repeat(width - filled)} ${total === 0 ? 100 : Math.floor((done / total) * 100)}%`;
}

function budgetLine(budget: ReturnType<TeamRun['budgetView']>): string {
  const of = (used: number, max: number | undefined, unit = '') => (max === undefined ? `${used}${unit}` : `${used} of ${max}${unit}`);
  const parts = [
    `${of(budget.used.tasks, budget.limits.maxTasks)} attempts`,
    `${of(budget.used.tokens, budget.limits.maxTokens)} tokens`,
    `$${of(budget.used.usd, budget.limits.maxUsd)}`,
  ];
  if (budget.stopped) parts.push(`stopped: ${budget.reason}`);
  return parts.join(', ');
}
