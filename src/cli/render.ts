import type { AdjudicationRecord, BudgetView, RunResult, TaskView } from '../contract';
import { count, duration, oneLine, printable, table, usd } from '../format';
import type { RunOverview } from '../operator/run-view';
import type { PendingAttempt } from '../client/run-health';

/** Above this many tasks a summary lists only the ones that did not succeed. */
const FULL_TABLE_MAX = 40;

type Stats = NonNullable<RunOverview['stats']>;

export function statsLine(stats: Stats): string {
  const settled = stats.succeeded + stats.failed + stats.skipped;
  const parts = [
    `${settled}/${stats.total} done`,
    `${stats.succeeded} succeeded`,
    `${stats.failed} failed`,
    `${stats.skipped} skipped`,
    `${stats.adjudication} in adjudication`,
  ];
  if ('running' in stats) parts.push(`${stats.running} running`, `${stats.pending} pending`);
  return parts.join(' · ');
}

/** Budget as used / reserved / limit, one row per dimension. */
export function budgetTable(budget: BudgetView): string {
  const { limits, used, reserved } = budget;
  const limit = (max: number | undefined, show: (n: number) => string) => (max === undefined ? 'unbounded' : show(max));
  return table(
    ['', 'used', 'reserved', 'limit'],
    [
      ['tasks', count(used.tasks), '-', limit(limits.maxTasks, count)],
      ['tokens', count(used.tokens), count(reserved.tokens), limit(limits.maxTokens, count)],
      ['usd', usd(used.usd), usd(reserved.usd), limit(limits.maxUsd, usd)],
      ['wall', duration(used.wallMs), '-', limit(limits.maxWallMs, duration)],
    ],
  );
}

function taskNote(task: TaskView): string {
  if (task.waiting && task.status === 'ready') return task.waiting;
  if (task.lastError && task.status !== 'succeeded') return task.lastError;
  if (task.skipReason) return task.skipReason;
  if (task.output !== undefined) return `output ${JSON.stringify(task.output)}`;
  return '';
}

export function tasksTable(tasks: TaskView[], noteWidth = 70): string {
  return table(
    ['KEY', 'STATUS', 'ATTEMPTS', 'TOKEN', 'HOLDER', 'NOTE'],
    tasks.map((t) => [
      t.key,
      t.status,
      String(t.attempts),
      String(t.fencingToken),
      t.holder ?? '-',
      oneLine(taskNote(t), t.waiting && t.status === 'ready' ? Math.max(noteWidth, 200) : noteWidth),
    ]),
  );
}

export function adjudicationsTable(pending: AdjudicationRecord[]): string {
  return table(
    ['KEY', 'CODE', 'TOKEN', 'REQUESTED', 'REASON'],
    pending.map((a) => [
      a.key,
      a.code,
      String(a.fencingToken),
      new Date(a.requestedAt).toISOString(),
      oneLine(a.reason ?? '', 60),
    ]),
  );
}

const indent = (text: string) => text.replace(/^/gm, '  ');

/** What `start --wait` and `demo` print when a run has finished. */
export function renderResult(workflowId: string, result: RunResult): string {
  const lines = [
    `run ${workflowId}: ${result.status}${result.budgetReason ? ` (budget: ${result.budgetReason})` : ''}`,
    `  tasks   ${statsLine(result.stats)}`,
    `  work    ${result.executions} attempts, at most ${result.maxConcurrent} ` +
      `at once, ${duration(result.budget.used.wallMs)}`,
    `  usage   ${count(result.budget.used.tokens)} tokens, ${usd(result.budget.used.usd)}`,
    '',
  ];
  const shown =
    result.tasks.length <= FULL_TABLE_MAX
      ? result.tasks
      : result.tasks.filter((t) => t.status !== 'succeeded').slice(0, FULL_TABLE_MAX);
  if (shown.length) lines.push(indent(tasksTable(shown)));
  // A big run's result leaves views out (`omittedTasks`): the `tasks` query has them all.
  const more = result.tasks.length - shown.length + result.omittedTasks;
  if (more > 0) lines.push(`  (${more} more; see \`teamrun tasks ${workflowId}\`)`);
  const failing = result.tasks.filter((t) => t.status === 'failed' || t.status === 'adjudication');
  if (failing.length) {
    lines.push('', 'failing tasks:');
    for (const t of failing)
      lines.push(
        `  ${t.key} (${t.status} after ${t.attempts} attempt(s)): ${printable(t.lastError ?? 'no error recorded')}`,
      );
  }
  return lines.join('\n');
}

/** An attempt Temporal scheduled that no worker has started: why, as far as the queue tells. */
function notStartedLine(a: PendingAttempt): string {
  const since = a.scheduledAt === null ? '' : ` ${duration(Math.max(0, Date.now() - a.scheduledAt))} ago`;
  const why =
    a.pollers === 0
      ? 'no worker polls that queue for activities'
      : a.pollers === null
        ? 'its queue could not be described'
        : `${a.pollers} worker(s) poll it, none has taken it yet`;
  return `not started  ${a.activityId}: scheduled${since} on task queue "${a.taskQueue ?? '?'}", ${why}`;
}

/** What `status` prints. */
export function renderOverview(overview: RunOverview, webUi: string | null): string {
  const lines = [
    `run      ${overview.workflowId}${overview.name ? ` (${overview.name})` : ''}`,
    `state    ${overview.state}${overview.open ? '' : ' (closed)'}`,
  ];
  if (overview.failure) lines.push(`failure  ${overview.failure}`);
  if (overview.stats) lines.push(`tasks    ${statsLine(overview.stats)}`);
  if (overview.executions !== null)
    lines.push(`attempts ${overview.executions}, at most ${overview.maxConcurrent} at once`);
  if (overview.budget) {
    const stopped = overview.budget.stopped ? ` (stopped: ${overview.budget.reason})` : '';
    lines.push(`budget${stopped}`, indent(budgetTable(overview.budget)));
    const ledger = overview.budget.limits.ledger;
    if (ledger) lines.push(`ledger   ${ledger} (shared budget; see \`teamrun ledger status ${ledger}\`)`);
  }
  for (const w of overview.waitingForBudget ?? []) lines.push(`waiting  ${w.key}: ${w.waiting}`);
  if (overview.cancelRequestedAt !== null) {
    const when = new Date(overview.cancelRequestedAt).toISOString();
    lines.push(
      overview.open
        ? `cancel   requested ${when}: nothing new starts; the run closes as Canceled once its attempts settle`
        : `cancel   requested ${when}: the run closed as Canceled`,
    );
  }
  lines.push(...overview.attempts.filter((a) => a.state === 'scheduled').map(notStartedLine));
  if (overview.pendingAdjudications.length) {
    lines.push(
      `pending adjudications (${overview.pendingAdjudications.length})`,
      indent(adjudicationsTable(overview.pendingAdjudications)),
    );
  } else if (!overview.failure) {
    lines.push('pending adjudications: none');
  }
  if (webUi) lines.push(`web ui   ${webUi}`);
  return lines.join('\n');
}
