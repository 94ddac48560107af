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
  type ExtendChildCarveRequest,
  type TeamParent,
} from '../plan/requests/child-carve';
import { TeamControlError, parseControl } from '../plan/requests/control';
import type { RunContext } from './context';
import type { Attempt, AttemptOutcome, Reservation } from './types';

/** Runs whose history began before a child could ask its parent keep refusing past the carve (replay). */
export const CHILD_BUDGET_PATCH = 'teamrun-child-budget';

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

/** Grants the child all of its ask from this run's budget, or throws the refusal (`TEAM_TASK_BUDGET_EXCEEDED`). */
export function grantChildCarve(run: RunContext, payload: unknown, now: number): { tokens: number; usd: number } {
  const { request, attempt } = checkChildCarve(run, payload);
  const granted = run.budget.extend(request);
  if (!granted.ok) {
    throw new TeamControlError(
      'TEAM_TASK_BUDGET_EXCEEDED',
      `${MESSAGE}: the run's budget cannot grant its child ${request.childWorkflowId} ${request.tokens ?? 0} more ` +
        `tokens and $${request.usd ?? 0} (${granted.reason})`,
    );
  }
  const { tokens, usd } = granted.extension;
  attempt.reservation = { tokens: attempt.reservation.tokens + tokens, usd: sum(attempt.reservation.usd, usd) };
  run.events.record('budget:child-carve-extended', now, {
    key: request.key,
    fencingToken: attempt.fencingToken,
    child: request.childWorkflowId,
    tokens,
    usd,
    reservation: attempt.reservation,
  });
  run.touch();
  return { tokens, usd };
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
