import type { AttemptLink } from '../activities/interface';
import type { ActiveClaim, BudgetView } from '../contract';
import { count, usd } from '../format';
import { markdownText } from '../team/markdown';
import type { TeamRun } from '../team/run';

/** How many pending adjudications and running attempts the details list by name. */
const LISTED = 5;
/** A recorded reason (an interruption's, the budget's) as the details show it, at most. */
const REASON_CHARS = 300;

/**
 * The short markdown the Web UI shows as the run's current details: where the run is, what
 * waits for a human (and how to decide it), what runs now, and the budget.
 */
export function currentDetails(
  run: TeamRun,
  now: number,
  links: ReadonlyArray<TaskLinks> = [],
  namespace = 'default',
): string {
  const status = run.status(now);
  const { stats, budget } = status;
  const done = stats.succeeded + stats.failed + stats.skipped;
  const lines = [
    `**${status.name}** · ${status.state}`,
    '',
    `- tasks: ${done}/${stats.total} done (${stats.succeeded} succeeded, ${stats.failed} failed, ${stats.skipped} ` +
      `skipped), ${stats.running} running`,
    `- progress: ${bar(done, stats.total)}`,
    `- adjudication: ${status.pendingAdjudications} pending`,
  ];
  const pending = run.adjudicationsView().filter((a) => a.decision === null);
  if (run.cancelling) {
    lines.push(
      pending.length && status.state === 'awaiting_adjudication'
        ? `- cancel requested: nothing new starts; closes as Canceled once the ${pending.length} pending ` +
            `adjudication(s) below are decided`
        : '- cancel requested: nothing new starts; closes as Canceled when the stopped attempts settle',
    );
  }
  for (const a of pending.slice(0, LISTED)) {
    lines.push(
      `- waiting: \`${a.key}\` token ${a.fencingToken}: ` +
        `${a.code}${a.actor ? ` by ${markdownText(a.actor)}` : ''}` +
        `${a.reason ? ` (${markdownText(readableMs(a.reason), REASON_CHARS)})` : ''}`,
    );
  }
  if (pending.length > LISTED) lines.push(`- waiting: and ${pending.length - LISTED} more (query \`adjudications\`)`);
  const approvals = pending.filter((a) => a.code === 'TEAM_TASK_APPROVAL_REQUIRED');
  // The actor is a placeholder that reads as a name: governance refuses an empty one.
  const others = pending.filter((a) => a.code !== 'TEAM_TASK_APPROVAL_REQUIRED');
  if (others.length) {
    const first = others[0].key;
    lines.push(
      `- decide: \`teamrun adjudicate ${run.workflowId} ${first} --retry\` (or \`--accept\`, \`--reject\`), or the ` +
        `\`adjudicate\` update { "key": "${first}", "decision": "retry", "decisionId": "<any new id>", ` +
        `"actor": "<an operator's name>" }`,
    );
  }
  if (approvals.length) {
    const first = approvals[0].key;
    lines.push(
      `- approve: \`teamrun adjudicate ${run.workflowId} ${first} --accept\` (or \`--reject\`), or the ` +
        `\`adjudicate\` update { "key": "${first}", "decision": "accept", "decisionId": "<any new id>", ` +
        `"actor": "<an approver's name>" }`,
    );
  }
  const mail = run.messagesView({ limit: 0 });
  if (mail.nextId > 0)
    lines.push(`- mailbox: ${mail.nextId} message(s) sent (query \`messages\`; members: query \`members\`)`);
  const claims = run.activeClaims();
  if (claims.length) {
    const heard = (c: ActiveClaim) => run.heardFrom(c.key, c.fencingToken);
    const shown = claims
      .slice(0, LISTED)
      .map(
        (c) =>
          `\`${c.activityId}\` (${markdownText(c.holder)}${heard(c) ? ', running' : ''}${agentAt(run, c)}` +
          `${c.interrupted ? ', interrupted' : ''})`,
      );
    lines.push(`- running: ${shown.join(', ')}${claims.length > LISTED ? ` and ${claims.length - LISTED} more` : ''}`);
    // Until an attempt announces itself (past a second) or reports a step, the run has seen it scheduled only:
    // one on a queue nobody polls looks the same.
    const unheard = claims.filter((c) => !heard(c)).length;
    if (unheard > 0) {
      lines.push(
        `- started? ${count(unheard)} attempt(s) scheduled, not heard from yet: \`teamrun status ` +
          `${run.workflowId}\` tells scheduled from running, \`teamrun doctor ${run.workflowId}\` names queues ` +
          'nobody polls',
      );
    }
  }
  lines.push(...treeLines(run.workflowId, status, namespace));
  for (const w of status.waitingForBudget ?? []) lines.push(`- \`${w.key}\` ${markdownText(w.waiting, 400)}`);
  for (const { key, links: printed } of links) {
    lines.push(
      `- links of \`${key}\`: ${printed.map((l) => `[${markdownText(l.label || l.url)}](${l.url})`).join(', ')}`,
    );
  }
  if (run.addedTasks > 0) {
    lines.push(`- added while running: ${run.addedTasks} task(s)`);
    const tree = run.spawnTree(LISTED, LISTED);
    for (const { parent, children, total } of tree) {
      const more = total > children.length ? ` and ${total - children.length} more` : '';
      lines.push(`  - \`${parent}\` -> ${children.map((c) => `\`${c}\``).join(', ')}${more}`);
    }
  }
  lines.push(`- budget: ${budgetLine(budget)}`);
  return lines.join('\n');
}

/** A run's page in the Web UI, relative to the Web UI's own address. */
const runPage = (namespace: string, id: string) =>
  `/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(id)}`;

/** Links up and down a tree of teams: the parent run of a child, and the child runs of its team tasks. */
function treeLines(workflowId: string, status: ReturnType<TeamRun['status']>, namespace: string): string[] {
  const lines: string[] = [];
  if (status.path) {
    const parent = workflowId.replace(/\/[^/]+#\d+$/, '');
    lines.push(
      `- tree: \`${markdownText(status.path)}\`, parent run [${markdownText(parent)}](${runPage(namespace, parent)})`,
    );
  }
  const children = status.children;
  if (!children) return lines;
  const shown = children.listed
    .slice(0, LISTED)
    .map((c) =>
      c.child
        ? `\`${c.key}\` ${c.status} [${markdownText(c.child)}](${runPage(namespace, c.child)})`
        : `\`${c.key}\` ${c.status}`,
    );
  const more = children.total > shown.length ? ` and ${children.total - shown.length} more` : '';
  lines.push(`- child runs (team tasks): ${shown.join(', ')}${more}`);
  return lines;
}

export interface TaskLinks {
  key: string;
  links: AttemptLink[];
}

/**
 * The links (`::teamrun-link::`) the latest attempts printed, newest last, at most LISTED tasks:
 * kept in workflow memory for the current details only, rebuilt from history on replay.
 */
export class RecentLinks {
  recent: TaskLinks[] = [];

  remember(key: string, carrier: object): void {
    const printed = (carrier as { links?: unknown }).links;
    const links = Array.isArray(printed) ? (printed as unknown[]).filter(isSafeLink).slice(0, LISTED) : [];
    if (!links.length) return;
    this.recent = [...this.recent.filter((entry) => entry.key !== key), { key, links }].slice(-LISTED);
  }
}

/** Only plain http(s) URLs without spaces or parentheses reach the markdown the Web UI renders. */
function isSafeLink(link: unknown): link is AttemptLink {
  const l = link as Partial<AttemptLink> | null;
  return (
    !!l &&
    typeof l.url === 'string' &&
    l.url.length <= 2_048 &&
    /^https?:\/\/[^\s()<>]+$/i.test(l.url) &&
    (l.label === undefined || typeof l.label === 'string')
  );
}

function bar(done: number, total: number): string {
  const width = 20;
  const filled = total === 0 ? width : Math.round((done / total) * width);
  return `${'▰'.repeat(filled)}${'▱'.repeat(width - filled)} ${total === 0 ? 100 : Math.floor((done / total) * 100)}%`;
}

function budgetLine(budget: BudgetView): string {
  const of = (used: string, max: number | undefined, show: (n: number) => string = count) =>
    max === undefined ? used : `${used} of ${show(max)}`;
  const parts = [
    `${of(count(budget.used.tasks), budget.limits.maxTasks)} attempts`,
    `${of(count(budget.used.tokens), budget.limits.maxTokens)} tokens`,
    of(dollars(budget.used.usd), budget.limits.maxUsd, dollars),
  ];
  if (budget.stopped) parts.push(`stopped: ${markdownText(readableMs(budget.reason ?? ''), REASON_CHARS)}`);
  return parts.join(', ');
}

/** Dollars as the CLI prints them, the sign escaped: two bare `$` make the Web UI render what is between as math. */
function dollars(n: number): string {
  return `\\${usd(n)}`;
}

/** Durations in a recorded reason (`3600000 ms`) as people read them (`1 h`). */
export function readableMs(text: string): string {
  return text.replace(/\b(\d{4,}) ms\b/g, (_, ms: string) => humanMs(Number(ms)));
}

function humanMs(ms: number): string {
  const units: Array<[number, string]> = [
    [86_400_000, 'd'],
    [3_600_000, 'h'],
    [60_000, 'min'],
    [1_000, 's'],
  ];
  for (const [size, unit] of units) {
    if (ms >= size) return `${Number((ms / size).toFixed(ms % size === 0 ? 0 : 1))} ${unit}`;
  }
  return `${ms} ms`;
}

/** Which turn a running agent is in and the tool it called last, as its worker last reported. */
function agentAt(run: TeamRun, claim: { key: string; fencingToken: number }): string {
  const progress = run.agentProgress(claim.key, claim.fencingToken);
  if (!progress) return '';
  return `, agent turn ${progress.turn}${progress.lastTool ? `, last tool \`${progress.lastTool}\`` : ''}`;
}
