/**
 * The `team` executor kind's rules (docs/teams.md): a task whose attempt is a child `teamRun` workflow. Which child
 * to start (its id, its plan with the budget carved from the parent's), what its end means for the task (output,
 * usage charged once, failure), and the abort a stop of the task sends it. Pure; the workflow starts what these say
 * (src/workflows/child-team.ts) and the run settles the outcome like any attempt's.
 */
import type { BudgetView, RunResult } from '../contract';
import { MAX_OUTPUT_BYTES } from '../activities/interface';
import { MESSAGE_LIMITS, type AbortRequest } from '../plan/requests/control';
import { jsonBytes } from '../plan/bytes';
import { TEAM_DEPTH_DEFAULT } from '../plan/team';
import type { RunContext } from './context';
import type { Cancellation } from './leases';
import type { AttemptOutcome, Claim, ReportedUsage } from './types';

/** Runs whose history began before team tasks never start a child workflow (replay stays deterministic). */
export const TEAM_KIND_PATCH = 'teamrun-team-kind';

/**
 * What a parent stops a child with, sent to it (signal `abortRun`) before its cancellation. `interrupt`: the parent's
 * interrupt of the team task (or one cascading from further up): the child's attempts go to adjudication in the child.
 * The workflow adds the cascade's token (cascade.ts).
 */
export type ChildAbort = Omit<AbortRequest, 'cascade' | 'requireAdjudication'> & { interrupt: boolean };

/** A cancellation of a team task's attempt carries the abort its child gets. */
export type TeamCancellation = Cancellation & { childAbort?: ChildAbort };

/** What the parent carved for the child: each limit's bound, null where the parent has none. */
export interface Carve {
  tokens: number | null;
  usd: number | null;
  tasks: number | null;
  wallMs: number | null;
}

export function isTeamTask(claim: Pick<Claim, 'executor'>): boolean {
  return claim.executor.kind === 'team';
}

export { childWorkflowId } from './child-id';

/**
 * Runs recorded before a child team ran on its parent's shared ledger took a ledger slot for the team task (never
 * renewed), carved the child nothing of tokens and dollars (the slot's grant), and started it without the ledger.
 */
export const TEAM_ON_LEDGER = 'teamrun-team-on-ledger';

/**
 * The carve: what the attempt's reservation holds of tokens and dollars (claims.ts reserved it as any attempt's),
 * the share of `maxTasks` the parent holds for it (`taskShare`, team/tree-limits.ts; null: what the parent has left,
 * as runs recorded before that share did), and what the parent has left of wall clock as it starts the child.
 */
export function carveOf(
  claim: Pick<Claim, 'grant'>,
  budget: Pick<BudgetView, 'remaining'>,
  taskShare: number | null = null,
): Carve {
  return {
    tokens: claim.grant.tokens,
    usd: claim.grant.usd,
    tasks: taskShare ?? budget.remaining.tasks,
    wallMs: budget.remaining.wallMs === null ? null : Math.max(1, budget.remaining.wallMs),
  };
}

const atMost = (own: unknown, carve: number | null): number | undefined => {
  const mine = typeof own === 'number' ? own : undefined;
  if (carve === null) return mine;
  return mine === undefined ? carve : Math.min(mine, carve);
};

/** The child's plan: the task's own, its limits at most the carve (a limit it does not set is the carve). */
export function childPlan(plan: Record<string, unknown>, carve: Carve): Record<string, unknown> {
  const own = (typeof plan.budget === 'object' && plan.budget !== null ? plan.budget : {}) as Record<string, unknown>;
  const limits = {
    maxTokens: atMost(own.maxTokens, carve.tokens),
    maxUsd: atMost(own.maxUsd, carve.usd),
    maxTasks: atMost(own.maxTasks, carve.tasks),
    maxWallMs: atMost(own.maxWallMs, carve.wallMs),
  };
  const budget: Record<string, unknown> = { ...own };
  for (const [name, value] of Object.entries(limits)) if (value !== undefined) budget[name] = value;
  return { ...plan, budget };
}

/**
 * Whether a child may start at all: the parent's validation stamped its level, and a plan that reached the workflow
 * some other way past the bound is refused here too (the child's own validation refuses it again).
 */
export function depthRefusal(plan: Record<string, unknown>): string | null {
  const depth = typeof plan.teamDepth === 'number' ? plan.teamDepth : null;
  const max = typeof plan.maxTeamDepth === 'number' ? plan.maxTeamDepth : TEAM_DEPTH_DEFAULT;
  if (depth === null) return "the team task's plan carries no level (teamDepth): it was not validated as a plan";
  if (depth > max) return `a child team at level ${depth} is past maxTeamDepth ${max}`;
  return null;
}

/** The usage a child is charged with when its own is not known: its whole carve (fail closed). */
function carveUsage(carve: Carve): ReportedUsage | undefined {
  if (carve.tokens === null && carve.usd === null) return undefined;
  return { inputTokens: carve.tokens ?? 0, costUsd: carve.usd ?? 0 };
}

/** The child's output as its task's: its status, counts and its tasks' outputs, within the output bound. */
function outputOf(childId: string, result: RunResult): Record<string, unknown> {
  const outputs: Record<string, unknown> = {};
  for (const view of result.tasks) if (view.output !== undefined) outputs[view.key] = view.output;
  const base = { run: childId, status: result.status, stats: result.stats, budget: result.budget.used };
  const whole = { ...base, outputs };
  // Room kept for the rest of the attempt's settlement beside the output.
  if (jsonBytes(whole) <= MAX_OUTPUT_BYTES - 1_024) return whole;
  return { ...base, outputsOmitted: Object.keys(outputs).length };
}

/**
 * What a child's end means for its task. `result`: the child's RunResult (from its completion, or the details of
 * its cancellation), null when it ended without one (failed, terminated, timed out). `stopped`: the parent stopped
 * this attempt (interrupt, abort, wall clock). The child's used tokens and dollars are the attempt's usage, charged
 * once to the parent; a child whose usage is unknown is charged at least its carve and marks the parent's budget.
 */
export function teamOutcome(childId: string, result: RunResult | null, carve: Carve, stopped: boolean): AttemptOutcome {
  if (!result) {
    const usage = carveUsage(carve);
    return {
      kind: 'failed',
      message: `the child team run ${childId} ended without a result: its usage is unknown, charged its carve`,
      nonRetryable: false,
      usageUnknown: true,
      ...(usage ? { usage } : {}),
    };
  }
  const unknown = result.budget.usageUnknown;
  const known: ReportedUsage = { inputTokens: result.budget.used.tokens, costUsd: result.budget.used.usd };
  const floor = unknown ? carveUsage(carve) : undefined;
  const usage: ReportedUsage = floor
    ? {
        inputTokens: Math.max(known.inputTokens ?? 0, floor.inputTokens ?? 0),
        costUsd: Math.max(known.costUsd ?? 0, floor.costUsd ?? 0),
      }
    : known;
  const output = outputOf(childId, result);
  const marks = unknown ? { usageUnknown: true } : {};
  if (result.status === 'succeeded') return { kind: 'completed', output, usage, ...marks };
  if (stopped) return { kind: 'cancelled', output, usage, ...marks };
  const why = result.budgetReason ? ` (${result.budgetReason})` : '';
  return {
    kind: 'failed',
    message: `the child team run ${childId} ended ${result.status}${why}`,
    nonRetryable: false,
    output,
    usage,
    ...marks,
  };
}

/** An abort's reason is bounded (AbortRequestSchema): a prefixed one is cut to fit. */
const REASON_CHARS = MESSAGE_LIMITS.reasonChars;
const PARENT_ABORTED = 'the parent run was aborted';

/** Stopped team tasks' cancellations carry what their child is told: the parent's abort code, actor and reason. */
export function withChildAborts(run: RunContext, cancels: Cancellation[]): TeamCancellation[] {
  return cancels.map((c) => {
    const i = run.graph.indexOf(c.key);
    const attempt = run.leases.get(c.key);
    if (i === undefined || run.spec(i).executor.kind !== 'team' || attempt?.fencingToken !== c.fencingToken) return c;
    const stop = attempt.stop;
    let request: AbortRequest;
    let interrupt = false;
    if (stop?.kind === 'interrupt') {
      const { actor, reason } = stop.interruption;
      interrupt = true;
      request = {
        code: 'TEAM_TASK_HUMAN_INTERRUPTED',
        reason: `${interruptedIn(run.workflowId, c.key, c.fencingToken)}${reason ? `: ${reason}` : ''}`.slice(
          0,
          REASON_CHARS,
        ),
        ...(actor ? { actor } : {}),
      };
    } else if (stop?.kind === 'abort' && run.abort?.fromParent === 'interrupt') {
      // An interrupt from further up goes down as it came: its code, actor and the reason naming where it began.
      const { code, reason, actor } = run.abort;
      interrupt = true;
      request = { ...(code ? { code } : {}), ...(reason ? { reason } : {}), ...(actor ? { actor } : {}) };
    } else if (stop?.kind === 'abort' && run.abort) {
      const { code, reason, actor } = run.abort;
      request = {
        ...(code ? { code } : {}),
        // A level further down keeps the reason its parent was given (no "the parent run was aborted" twice).
        reason: (reason?.startsWith(PARENT_ABORTED) ? reason : `${PARENT_ABORTED}${reason ? `: ${reason}` : ''}`).slice(
          0,
          REASON_CHARS,
        ),
        ...(actor ? { actor } : {}),
      };
    } else request = { code: 'TEAM_RUN_WALL_CLOCK', reason: 'the parent run ran out of wall clock' };
    return { ...c, childAbort: { ...request, interrupt } };
  });
}

/** How a cascaded interrupt names where it began: the run, the team task and its attempt's token. */
export function interruptedIn(parentRun: string, key: string, fencingToken: number): string {
  return `interrupted in the parent run ${parentRun}, task ${key}#${fencingToken}`;
}
