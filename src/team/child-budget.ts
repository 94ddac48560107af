/**
 * Budgets across a tree of teams (docs/budgets.md, the tree): a child run that needs more than its carve asks its
 * parent (`extendChildCarve`), and the parent grants it from what it has, all of the ask or nothing, as it grants
 * any attempt's `extendReservation`: the team task's reservation grows, and the child's limits grow by the grant.
 * The parent answers only its own child: the attempt it started that child for, by the child's workflow id and
 * first run id as the start returned them (a workflow id alone is guessable). Pure; the workflow asks upward
 * (src/workflows/child-budget.ts).
 */
import {
  ExtendChildCarveSchema,
  TeamParentSchema,
  type ChildCarveGrant,
  type ExtendChildCarveRequest,
  type ExtendChildCarveVerdict,
  type TeamParent,
} from '../plan/requests/child-carve';
import { TeamControlError, parseControl } from '../plan/requests/control';
import type { RunContext } from './context';
import { grantTasks } from './tree-limits';
import type { Attempt, AttemptOutcome, Reservation } from './types';

/** Runs whose history began before a child could ask its parent keep refusing past the carve (replay). */
export const CHILD_BUDGET_PATCH = 'teamrun-child-budget';
/** Runs whose history began before a child could ask for more attempts stop when their share of maxTasks is spent. */
export const CHILD_TASK_ASK_PATCH = 'teamrun-child-task-ask';
/** Runs whose history began before a child's asks of its parent went one at a time keep sending them at once. */
export const SERIAL_PARENT_ASKS_PATCH = 'teamrun-serial-parent-asks';

const MESSAGE = 'extendChildCarve';

/**
 * The parent this run is the child of: its plan's stamp, only where the server says this run has that parent
 * (a root plan carrying a stamp of its own asks nobody).
 */
export function parentOf(plan: { teamParent?: unknown }, serverParent: string | undefined): TeamParent | null {
  const parsed = TeamParentSchema.safeParse(plan.teamParent);
  if (!parsed.success || serverParent === undefined || parsed.data.workflowId !== serverParent) return null;
  return parsed.data;
}

/** The parent records the child it started for the team task's attempt (what `extendChildCarve` must name). */
export function childStarted(run: RunContext, key: string, fencingToken: number, child: Attempt['child']): void {
  const attempt = run.leases.get(key);
  if (attempt && attempt.fencingToken === fencingToken) attempt.child = child;
}

/** Every check of who asks, for the update's validator: a stranger's ask never reaches history. */
export function checkChildCarve(
  run: RunContext,
  payload: unknown,
): { request: ExtendChildCarveRequest; attempt: Attempt } {
  const request = parseControl(ExtendChildCarveSchema, payload, MESSAGE);
  const i = run.graph.indexOf(request.key);
  if (i === undefined || run.spec(i).executor.kind !== 'team')
    throw new TeamControlError('not_found', `${MESSAGE}: no team task "${request.key}"`);
  const attempt = run.leases.get(request.key);
  const child = attempt?.child;
  if (
    !attempt ||
    !child ||
    attempt.fencingToken !== request.fencingToken ||
    child.workflowId !== request.childWorkflowId ||
    child.runId !== request.childRunId
  ) {
    throw new TeamControlError(
      'forbidden',
      `${MESSAGE}: ${request.childWorkflowId} (run ${request.childRunId}) is not the child this run started for ` +
        `"${request.key}" token ${request.fencingToken}`,
    );
  }
  if (attempt.stop)
    throw new TeamControlError(
      'stale_attempt',
      `${MESSAGE}: "${request.key}" token ${attempt.fencingToken} is stopped`,
    );
  return { request, attempt };
}

/** What the run lacks to grant `ask` (null: it has it): what it asks its own parent for, when it has one. */
export function lackFor(run: RunContext, ask: { tokens?: number; usd?: number }): Reservation | null {
  return run.budget.stopped ? null : run.budget.lackFor(ask);
}

/** The run's parent granted it `grant`: its limits grow by it (its carve grew), before it grants its own ask. */
export function raiseCarve(run: RunContext, grant: Reservation, now: number): void {
  run.budget.raise(grant);
  run.events.record('budget:carve-extended', now, { tokens: grant.tokens, usd: grant.usd, limits: run.budget.limits });
  run.touch();
}

/**
 * Grants the child its ask from this run's budget: all of the tokens and dollars, and of attempts as many as the
 * run has left (at least one); or throws the refusal (`TEAM_TASK_BUDGET_EXCEEDED`).
 */
export function grantChildCarve(run: RunContext, payload: unknown, now: number): ChildCarveGrant {
  const { request, attempt } = checkChildCarve(run, payload);
  const refused = (why: string) =>
    new TeamControlError(
      'TEAM_TASK_BUDGET_EXCEEDED',
      `${MESSAGE}: the run's budget cannot grant its child ${request.childWorkflowId} ${describe(request)} (${why})`,
    );
  if (run.budget.stopped) throw refused(run.budget.reason ?? 'stopped');
  const asksMoney = (request.tokens ?? 0) > 0 || (request.usd ?? 0) > 0;
  // Attempts first: they may be refused, and then nothing has been reserved.
  let tasks: number | undefined;
  if (request.tasks !== undefined) {
    try {
      tasks = grantTasks(run, request.key, request.fencingToken, request.tasks);
    } catch (err) {
      throw refused((err as Error).message);
    }
  }
  const granted = asksMoney ? run.budget.extend(request) : { ok: true as const, extension: { tokens: 0, usd: 0 } };
  if (!granted.ok) throw refused(granted.reason);
  const { tokens, usd } = granted.extension;
  attempt.reservation = { tokens: attempt.reservation.tokens + tokens, usd: sum(attempt.reservation.usd, usd) };
  run.events.record('budget:child-carve-extended', now, {
    key: request.key,
    fencingToken: attempt.fencingToken,
    child: request.childWorkflowId,
    tokens,
    usd,
    ...(tasks !== undefined ? { tasks } : {}),
    reservation: attempt.reservation,
  });
  run.touch();
  return { tokens, usd, ...(tasks !== undefined ? { tasks } : {}) };
}

/** An ask as a person reads it: `3 more attempts`, or `500 more tokens and $0.2`. */
export const describeAsk = (ask: { tokens?: number; usd?: number; tasks?: number }): string =>
  ask.tasks !== undefined ? `${ask.tasks} more attempts` : `${ask.tokens ?? 0} more tokens and $${ask.usd ?? 0}`;
const describe = describeAsk;

/**
 * What a parent's verdict on an ask for attempts grants: its attempts, 0 when it refused or granted none (a parent
 * grants at least one or refuses, so 0 only comes from an older parent).
 */
export function tasksGranted(verdict: ExtendChildCarveVerdict): number {
  return verdict.ok ? Math.max(0, verdict.granted.tasks ?? 0) : 0;
}

/** A parent's verdict on this run's ask for attempts, as the run takes it: a grant, or a refusal that stands. */
export function taskAskAnswer(verdict: ExtendChildCarveVerdict): { granted: number } | { refused: string } {
  const granted = tasksGranted(verdict);
  if (granted > 0) return { granted };
  return { refused: verdict.ok ? 'the parent granted no attempts' : `${verdict.code}: ${verdict.message}` };
}

/**
 * A child run whose `maxTasks` refuses ready tasks asks its parent for `wanted` more attempts instead of stopping,
 * once its parent has not refused it. Records the want for the workflow, which sends the ask; false where the run
 * stops as before (a root, a refused ask, a history recorded before the patch).
 */
export function wantTasks(run: RunContext, wanted: number): boolean {
  const ask = run.taskAsk;
  if (!ask.parent || ask.refused !== null || wanted < 1 || !run.patched(CHILD_TASK_ASK_PATCH)) return false;
  ask.wanted = wanted;
  return true;
}

/** The parent answered the ask for attempts: `maxTasks` grows by the grant, or the refusal stands (the run stops). */
export function tasksAnswered(run: RunContext, answer: { granted: number } | { refused: string }, now: number): void {
  const asked = run.taskAsk.wanted;
  run.taskAsk.wanted = 0;
  if ('granted' in answer) {
    run.budget.raiseTasks(answer.granted);
    run.events.record('budget:carve-extended', now, { tasks: answer.granted, limits: run.budget.limits });
  } else {
    run.taskAsk.refused = answer.refused;
    run.events.record('budget:carve-refused', now, { tasks: asked, message: answer.refused });
  }
  run.touch();
}

const sum = (a: number, b: number) => Math.round((a + b) * 1e9) / 1e9;

/** The failure type of a team task whose child id another workflow holds (no child started, nothing spent). */
export const CHILD_ID_TAKEN = 'TEAM_CHILD_ID_TAKEN';

/**
 * A team task's child could not start: another workflow (not this run's child: one started from outside, at the
 * guessable id) already holds its id. Nothing ran, so nothing is charged and the usage is known: a clear failure
 * naming the holder, retryable (a retry's new token is a new id).
 */
export function squattedOutcome(childWorkflowId: string, holderType: string | undefined): AttemptOutcome {
  return {
    kind: 'failed',
    errorType: CHILD_ID_TAKEN,
    message:
      `${CHILD_ID_TAKEN}: the child team run's id ${childWorkflowId} is held by another workflow` +
      `${holderType ? ` (type ${holderType})` : ''} that this run did not start: no child started, nothing charged`,
    nonRetryable: false,
    usage: { inputTokens: 0, costUsd: 0 },
  };
}
