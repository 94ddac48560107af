/**
 * A `team` task's attempt: a child `teamRun` workflow (docs/teams.md). Started by the parent with the id, plan and
 * carve src/team/child-team.ts gives, closed with its parent (TERMINATE), and stopped by an abort sent to it then a
 * cancellation. What its end means for the task is team/'s.
 */
import {
  CancelledFailure,
  ChildWorkflowCancellationType,
  ChildWorkflowFailure,
  ParentClosePolicy,
  patched,
  startChild,
  type ChildWorkflowHandle,
} from '@temporalio/workflow';
import type { RunResult } from '../contract';
import { FAILURE_TYPES } from '../activities/interface';
import {
  carveOf,
  childPlan,
  childWorkflowId,
  depthRefusal,
  teamOutcome,
  type ChildAbort,
  type Carve,
  TEAM_ON_LEDGER,
} from '../team/child-team';
import { childLedger } from '../plan/team-depth';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { CHILD_BUDGET_PATCH, squattedOutcome } from '../team/child-budget';
import { withTreeShare } from '../team/tree-limits';
import type { TeamRun } from '../team/run';
import type { AttemptOutcome, Claim } from '../team/types';
import { cascadeRequest, cascadeToken, parentLink } from './child-cascade';
import { abortRunSignal } from './messages';

/** One team attempt in flight: its child, once started, and whether the parent stopped it. */
export interface ChildTeam {
  handle: ChildWorkflowHandle<(input: unknown) => Promise<RunResult>> | null;
  stopped: boolean;
  /** The token stamped in the child's plan, which the cascade quotes (team/cascade.ts); null before the patch. */
  token?: string | null;
}

/** Starts the child and resolves to the outcome its end means; never rejects. */
export async function runChildTeam(claim: Claim, run: TeamRun, child: ChildTeam): Promise<AttemptOutcome> {
  const plan = (claim.executor as unknown as { plan: Record<string, unknown> }).plan;
  const refused = depthRefusal(plan);
  if (refused) return { kind: 'failed', message: refused, errorType: FAILURE_TYPES.invalidPlan, nonRetryable: true };
  // A child runs on its parent's shared ledger: one whose plan (validated before that rule) names another never starts.
  const parentLedger = run.ledgerId !== null && patched(TEAM_ON_LEDGER) ? run.ledgerId : null;
  const onLedger = parentLedger === null ? null : childLedger(parentLedger, plan.budget);
  if (onLedger && 'problem' in onLedger) {
    return { kind: 'failed', message: onLedger.problem, errorType: FAILURE_TYPES.invalidPlan, nonRetryable: true };
  }
  const carve = carveOf(claim, run.budgetView(Date.now()), run.carveTasks(claim.key, claim.fencingToken));
  const workflowId = childWorkflowId(run.workflowId, claim.key, claim.fencingToken);
  child.token = cascadeToken();
  const link = child.token ? { parent: parentLink(run.workflowId, claim, child.token) } : {};
  let result: RunResult | null = null;
  let caught: unknown;
  try {
    // The child's place in its parent: what it names when it asks for more (workflows/child-budget.ts).
    const teamParent = { workflowId: run.workflowId, key: claim.key, fencingToken: claim.fencingToken };
    const carved = withTreeShare(childPlan(plan, carve), run.carveTree(claim.key, claim.fencingToken));
    // On its parent's shared ledger (plans validated before it was stamped there get it here): the carved budget
    // keeps the plan's own `ledger`, checked above, so this only stamps it.
    const ledger = parentLedger === null ? null : childLedger(parentLedger, carved.budget);
    const shared = ledger && 'plan' in ledger ? { ...carved, ...ledger.plan } : carved;
    const args: [unknown] = [{ ...shared, ...(patched(CHILD_BUDGET_PATCH) ? { teamParent } : {}), ...link }];
    child.handle = await startChild<(input: unknown) => Promise<RunResult>>('teamRun', {
      workflowId,
      args,
      // No child outlives its parent's end, whatever ends it (docs/teams.md says why not REQUEST_CANCEL).
      parentClosePolicy: ParentClosePolicy.TERMINATE,
      cancellationType: ChildWorkflowCancellationType.WAIT_CANCELLATION_COMPLETED,
      staticSummary: `${claim.title} · team · token ${claim.fencingToken} · ${claim.holder}`,
    });
    run.childStarted(claim.key, claim.fencingToken, { workflowId, runId: child.handle.firstExecutionRunId });
    result = await child.handle.result();
  } catch (err) {
    caught = err;
    // Another workflow holds the child's id (started from outside): nothing ran, so nothing is charged.
    if (err instanceof WorkflowExecutionAlreadyStartedError && patched(CHILD_BUDGET_PATCH)) {
      run.chargeTree(claim.key, claim.fencingToken, null, false);
      return squattedOutcome(workflowId, err.workflowType);
    }
    result = resultOf(err);
  }
  run.chargeTree(claim.key, claim.fencingToken, result);
  if (result === null) return unknownEnd(workflowId, caught, carve, child.stopped);
  return teamOutcome(workflowId, result, carve, child.stopped);
}

/**
 * Sends a stopped child the parent's abort; resolves to whether the server took it. Then the child ends by itself,
 * aborted with the parent's code, and its result (with its usage) settles the task. A Temporal cancellation is the
 * fallback when the abort could not be sent (the child not started yet, or gone): a child closed as Canceled reaches
 * its parent without the result its cancellation carries, so its usage would be unknown and charged its carve.
 */
export function stopChild(child: ChildTeam, abort: ChildAbort | undefined): Promise<boolean> {
  child.stopped = true;
  if (!abort || !child.handle) return Promise.resolve(false);
  return child.handle.signal(abortRunSignal, cascadeRequest(abort, child.token ?? null)).then(
    () => true,
    () => false,
  );
}

/** A child closed as Canceled carries its RunResult as the cancellation's details (src/workflows/cancel.ts). */
function resultOf(err: unknown): RunResult | null {
  const cause = err instanceof ChildWorkflowFailure ? err.cause : err;
  if (!(cause instanceof CancelledFailure)) return null;
  const details = cause.details?.[0] as RunResult | undefined;
  return typeof details === 'object' && details !== null && typeof details.status === 'string' ? details : null;
}

function unknownEnd(workflowId: string, err: unknown, carve: Carve, stopped: boolean): AttemptOutcome {
  const outcome = teamOutcome(workflowId, null, carve, stopped);
  const why = err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
  if (outcome.kind === 'failed') outcome.message = `${outcome.message} (${why.slice(0, 1_000)})`;
  return outcome;
}
