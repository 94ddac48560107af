import type { TeamRun } from '../team/run';

/** The short markdown the Web UI shows as the run's current details. */
export function currentDetails(run: TeamRun, now: number): string {
  const status = run.status(now);
  const { stats, budget } = status;
  const done = stats.succeeded + stats.failed + stats.skipped;
  const lines = [
    `**${status.name}** · ${status.state}`,
    `- tasks: ${done}/${stats.total} done (${stats.succeeded} succeeded, ${stats.failed} failed, ${stats.skipped} skipped), ${stats.running} running`,
    `- adjudication: ${status.pendingAdjudications} pending`,
    `- budget: ${budgetLine(budget)}`,
  ];
  return lines.join('\n');
}

function budgetLine(budget: ReturnType<TeamRun['budgetView']>): string {
  const of = (used: number, max: number | undefined, unit = '') => (max === undefined ? `${used}${unit}` : `${used}/${max}${unit}`);
  const parts = [
    `${of(budget.used.tasks, budget.limits.maxTasks)} attempts`,
    `${of(budget.used.tokens, budget.limits.maxTokens)} tokens`,
    `$${of(budget.used.usd, budget.limits.maxUsd)}`,
  ];
  if (budget.stopped) parts.push(`stopped: ${budget.reason}`);
  return parts.join(', ');
}
