/**
 * The tree's budget in the workflow (docs/budgets.md, the tree): a child run asks its parent for what its own
 * budget lacks (an activity sends `extendChildCarve` to the parent), and a parent answers its children's asks,
 * asking its own parent in turn when it is itself a child. The rules (who may ask, what is granted) are
 * src/team/child-budget.ts's.
 */
import {
  ApplicationFailure,
  defineUpdate,
  patched,
  proxyActivities,
  setHandler,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import {
  EXTEND_CHILD_CARVE,
  type ChildBudgetActivities,
  type ChildCarveGrant,
  type ExtendChildCarveRequest,
  type ExtendChildCarveVerdict,
  type TeamParent,
} from '../plan/requests/child-carve';
import { TeamControlError } from '../plan/requests/control';
import {
  CHILD_BUDGET_PATCH,
  SERIAL_PARENT_ASKS_PATCH,
  describeAsk,
  taskAskAnswer,
  tasksGranted,
} from '../team/child-budget';
import { controlQueue } from './stop-channel';
import type { TeamRun } from '../team/run';
import type { LedgerExtensions } from '../ledger/run-ledger';

export const extendChildCarveUpdate = defineUpdate<ChildCarveGrant, [ExtendChildCarveRequest]>(EXTEND_CHILD_CARVE);

const DESCRIPTION =
  "A child team run asks for more than its carve: granted from this run's budget (and its parent's, if it is a " +
  'child too), all of it or nothing. Only the child this run started for that team task attempt may ask.';

/** Whether this run is a child that may ask its parent (the extendReservation validator then leaves it to ask). */
export function mayAskParent(run: TeamRun): boolean {
  return run.teamParent(workflowInfo().parent?.workflowId) !== null;
}

/** Each child run's last ask of its parent and the grant after it (`oneAskAtATime`). */
const parentAsks = new WeakMap<TeamRun, Promise<unknown>>();

/**
 * Runs `askAndGrant` (an ask of this run's parent for what its budget lacks, then the grant that ask made possible)
 * after this run's earlier ones have ended. Two at once each counted the same free tokens, asked the parent for too
 * little, and the second grant found the first had taken them: a child refused with its parent's budget free (ci79).
 * A root asks no one: its grants run as they come.
 */
export function oneAskAtATime<T>(run: TeamRun, askAndGrant: () => Promise<T>): Promise<T> {
  if (!mayAskParent(run) || !patched(SERIAL_PARENT_ASKS_PATCH)) return askAndGrant();
  const mine = (parentAsks.get(run) ?? Promise.resolve()).then(askAndGrant);
  parentAsks.set(
    run,
    mine.catch(() => undefined),
  );
  return mine;
}

/**
 * Asks this run's parent for what its budget lacks to grant `ask`, and raises its own limits by the grant; throws
 * the refusal as a `TeamControlError`. Nothing to do at a root, or when the run has it.
 */
export async function askParent(run: TeamRun, ask: { tokens?: number; usd?: number }): Promise<void> {
  const parent = run.teamParent(workflowInfo().parent?.workflowId);
  const lack = parent ? run.carveLackFor(ask) : null;
  if (!parent || !lack || !patched(CHILD_BUDGET_PATCH)) return;
  const verdict = await sendAsk(parent, {
    ...(lack.tokens > 0 ? { tokens: lack.tokens } : {}),
    ...(lack.usd > 0 ? { usd: lack.usd } : {}),
  });
  if (!verdict.ok) {
    throw new TeamControlError(
      'TEAM_TASK_BUDGET_EXCEEDED',
      `this child run's carve lacks ${lack.tokens} tokens and $${lack.usd}, and its parent ${parent.workflowId} ` +
        `refused them (${verdict.code}: ${verdict.message})`,
    );
  }
  run.raiseCarve(verdict.granted, Date.now());
}

/**
 * Sends one ask to this run's parent through the worker (an activity sending `extendChildCarve`): the parent's
 * verdict, or `parent_unreachable` once the tries are spent.
 */
async function sendAsk(
  parent: TeamParent,
  ask: { tokens?: number; usd?: number; tasks?: number },
): Promise<ExtendChildCarveVerdict> {
  const info = workflowInfo();
  const what = describeAsk(ask);
  // Each try may wait 25 s (a parent asking its own parent); all of them inside the 60 s the gateway waits.
  const { extendParentCarve } = proxyActivities<ChildBudgetActivities>({
    ...controlQueue(),
    startToCloseTimeout: '25s',
    scheduleToCloseTimeout: '50s',
    retry: { initialInterval: '200ms', maximumInterval: '2s' },
    summary: `ask the parent ${parent.workflowId} for ${what}`,
  });
  return extendParentCarve({
    parentWorkflowId: parent.workflowId,
    updateId: `carve:${info.workflowId}:${uuid4()}`,
    request: {
      key: parent.key,
      fencingToken: parent.fencingToken,
      childWorkflowId: info.workflowId,
      childRunId: info.firstExecutionRunId,
      ...ask,
    },
  }).catch((err: unknown) => ({
    ok: false as const,
    code: 'parent_unreachable',
    message: err instanceof Error ? err.message : String(err),
  }));
}

/**
 * A child run asks its parent for the attempts its last claim step wanted (its share of `maxTasks` spent, tasks
 * ready), one ask at a time; the answer raises its `maxTasks` or stands as a refusal, and wakes the loop.
 */
export class ParentTaskAsks {
  private parent: TeamParent | null;
  private inFlight = false;

  constructor(private readonly run: TeamRun) {
    this.parent = run.teamParent(workflowInfo().parent?.workflowId);
    if (this.parent) run.mayAskParentForTasks();
  }

  /** Whether an ask is in flight (the run does not hand over meanwhile: its answer would be lost). */
  get asking(): boolean {
    return this.inFlight;
  }

  /** Sends the ask the last claim step recorded, unless one is in flight. */
  send(): void {
    const wanted = this.run.tasksWanted;
    if (this.inFlight || wanted < 1 || !this.parent) return;
    this.inFlight = true;
    void sendAsk(this.parent, { tasks: wanted }).then((verdict) => {
      this.inFlight = false;
      this.run.tasksAnswered(taskAskAnswer(verdict), Date.now());
    });
  }
}

/** A parent that is itself a child asks its own parent for what it lacks of a child's ask for attempts. */
async function askParentForTasks(run: TeamRun, ask: number): Promise<void> {
  const parent = run.teamParent(workflowInfo().parent?.workflowId);
  const lack = parent ? run.tasksLack(ask) : 0;
  if (!parent || lack < 1) return;
  const granted = tasksGranted(await sendAsk(parent, { tasks: lack }));
  // A refusal leaves this run to grant what it has (at least one) or refuse in turn.
  if (granted > 0) run.tasksAnswered({ granted }, Date.now());
}

/** The parent's side: `extendChildCarve`, checked before it reaches history, answered from this run's budget. */
export function registerChildCarve(run: TeamRun, ledger: LedgerExtensions | undefined): void {
  const failure = (err: unknown): unknown =>
    err instanceof TeamControlError ? ApplicationFailure.nonRetryable(`${err.code}: ${err.message}`, err.code) : err;
  const validator = (request: unknown) => {
    try {
      run.checkChildCarve(request);
    } catch (err) {
      throw failure(err);
    }
  };
  const handler = async (request: ExtendChildCarveRequest) => {
    try {
      const { leaseId, granted } = await oneAskAtATime(run, async () => {
        await askParent(run, request);
        if (request.tasks !== undefined) await askParentForTasks(run, request.tasks);
        const leaseId = run.activeClaims().find((c) => c.key === request.key)?.leaseId;
        return { leaseId, granted: run.grantChildCarve(request, Date.now()) };
      });
      // A shared ledger counts tokens and dollars, not attempts: an ask for attempts alone does not reach it.
      if (ledger && leaseId && (granted.tokens > 0 || granted.usd > 0)) {
        const refused = await ledger.extend(leaseId, granted);
        if (refused) {
          run.withdrawExtension(request.key, request.fencingToken, granted);
          throw new TeamControlError('TEAM_TASK_BUDGET_EXCEEDED', `${EXTEND_CHILD_CARVE}: ${refused.message}`);
        }
      }
      return granted;
    } catch (err) {
      throw failure(err);
    }
  };
  setHandler(extendChildCarveUpdate, handler, { validator, description: DESCRIPTION });
}
