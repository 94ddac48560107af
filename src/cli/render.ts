import type { AdjudicationRecord, BudgetView, RunResult, TaskView } from '../contract';
import { count, duration, oneLine, printable, table, usd } from '../format';
import type { RunOverview } from '../operator/run-view';
import type { PendingAttempt } from '../client/run-health';
import { outcomeLine } from '../team/outcome';
import { BLOCK_ACQUIRE_ID } from '../ledger/block-book';

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
  if (stats.claimable !== undefined) parts.push(`${stats.claimable} claimable`);
  if (stats.expiredLeases) parts.push(`${stats.expiredLeases} lease(s) expired`);
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
  const outcome = outcomeLine(task.outcome);
  const note = taskDetail(task);
  return outcome ? `[${outcome}]${note ? ` ${note}` : ''}` : note;
}

function taskDetail(task: TaskView): string {
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

/**
 * Whether an attempt Temporal scheduled is worth a line: no worker polls its queue, or none took it for a second. A
 * worker takes one in milliseconds (a run's confirmation on a stop queue: 10-187 ms, median 17, in an agents run), so
 * a line for each one caught in flight said "none has taken it yet" of work that was on its way.
 */
function unstarted(a: PendingAttempt): boolean {
  return a.pollers === 0 || a.scheduledAt === null || a.describedAt - a.scheduledAt >= NOT_STARTED_AFTER_MS;
}

/** How long a scheduled attempt waits, polled, before `status` names it as not started. */
const NOT_STARTED_AFTER_MS = 1_000;

/** An attempt Temporal scheduled that no worker has started: why, as far as the queue tells. */
function notStartedLine(a: PendingAttempt): string {
  const since = a.scheduledAt === null ? '' : ` ${duration(Math.max(0, a.describedAt - a.scheduledAt))} ago`;
  const why =
    a.pollers === 0
      ? 'no worker polls that queue for activities'
      : a.pollers === null
        ? 'its queue could not be described'
        : `${a.pollers} worker(s) poll it, none has taken it yet`;
  return `not started  ${a.activityId}: scheduled${since} on task queue "${a.taskQueue ?? '?'}", ${why}`;
}

/** The activity a run's attempt asks its shared ledger for a slot with (run-ledger.ts), while it waits. */
const LEDGER_SLOT_WAIT = /:ledger-(acquire|recovery)$/;
/** Ledger waits `status` names one by one; the rest are counted. */
const LEDGER_WAITS_SHOWN = 5;

/** An attempt whose slot the ledger refused at least once and is asked for again (the ledger's limits hold it back). */
function waitsForLedger(a: PendingAttempt): boolean {
  return LEDGER_SLOT_WAIT.test(a.activityId) && a.tries > 1 && a.lastFailure !== null;
}

/** What a run waits for from its ledger before attempts start, by the pending activity that asks (else null). */
function ledgerAskOf(a: PendingAttempt): string | null {
  if (a.state === 'scheduled') return null;
  if (a.activityType === 'ledgerRegister')
    return "the run's registration with its ledger (no attempt starts before it)";
  if (BLOCK_ACQUIRE_ID.test(a.activityId)) return "attempts starting together: a block of the run's ledger slots";
  return null;
}

/** `waiting  attempts starting together: a block of the run's ledger slots, asked 3.1s ago` (a worker took it). */
function ledgerAskLine(a: PendingAttempt, what: string): string {
  const since = a.scheduledAt === null ? '' : `, asked ${duration(Math.max(0, a.describedAt - a.scheduledAt))} ago`;
  const last = a.lastFailure ? `; try ${a.tries}, the last answered: ${oneLine(printable(a.lastFailure), 200)}` : '';
  return `waiting  ${what}${since}${last}`;
}

/** `waiting  b#1: a slot of the run's ledger, asked 6 times; the ledger answered: ...` */
function ledgerWaitLine(a: PendingAttempt): string {
  const attempt = a.activityId.replace(LEDGER_SLOT_WAIT, '');
  return (
    `waiting  ${attempt}: a slot of the run's ledger, asked ${a.tries} times; the ledger answered: ` +
    oneLine(printable(a.lastFailure ?? ''), 200)
  );
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
  for (const a of overview.attempts) {
    const what = ledgerAskOf(a);
    if (what) lines.push(ledgerAskLine(a, what));
  }
  const ledgerWaits = overview.attempts.filter((a) => waitsForLedger(a) && !BLOCK_ACQUIRE_ID.test(a.activityId));
  lines.push(...ledgerWaits.slice(0, LEDGER_WAITS_SHOWN).map(ledgerWaitLine));
  if (ledgerWaits.length > LEDGER_WAITS_SHOWN) {
    lines.push(`waiting  ${ledgerWaits.length - LEDGER_WAITS_SHOWN} more attempt(s) for a slot of the ledger`);
  }
  const notStarted = overview.attempts.filter((a) => a.state === 'scheduled' && !waitsForLedger(a) && unstarted(a));
  lines.push(...notStarted.map(notStartedLine));
  if (overview.pendingAdjudications.length) {
    lines.push(
      `pending adjudications (${overview.pendingAdjudications.length})`,
      indent(adjudicationsTable(overview.pendingAdjudications)),
    );
  } else if (!overview.failure) {
    lines.push('pending adjudications: none');
  }
  if (overview.outcomes) lines.push(outcomesLine(overview.outcomes));
  if (webUi) lines.push(`web ui   ${webUi}`);
  return lines.join('\n');
}

/** `outcomes mock 1 (ui-tests) · real 2 · ran no test 1 (review)`: what the outputs declare. */
function outcomesLine({ counts, keys }: NonNullable<RunOverview['outcomes']>): string {
  const part = (label: string, kind: keyof typeof counts) => {
    if (!counts[kind]) return null;
    const more = counts[kind] > keys[kind].length ? ', ...' : '';
    return `${label} ${counts[kind]} (${keys[kind].join(', ')}${more})`;
  };
  const parts = [
    part('mock', 'mock'),
    part('real', 'real'),
    part('no integration', 'none'),
    part('ran no test', 'testsNotRun'),
  ];
  return `outcomes ${parts.filter((p) => p !== null).join(' · ')}`;
}
