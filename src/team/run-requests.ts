/**
 * What people and attempts send a team run (updates and signals): each method checks or applies one request,
 * and says which module answers it. The middle of TeamRun (run.ts), over its views (run-views.ts).
 */
import type {
  AbortVerdict,
  AddTasksRequest,
  AddTasksVerdict,
  AdjudicateRequest,
  AdjudicateVerdict,
  BindCaseRequest,
  BindCaseVerdict,
  ExtendReservationRequest,
  ExtendReservationVerdict,
  InterruptVerdict,
  LinkRunRequest,
  LinkRunVerdict,
  ReadInboxAnswer,
  ReadInboxRequest,
  RunResult,
  SendMessageRequest,
  SendMessageVerdict,
  TightenBudgetRequest,
  TightenBudgetVerdict,
} from '../contract';
import * as additions from './additions';
import * as coordinated from './coordinated';
import * as decisions from './decisions';
import * as childBudget from './child-budget';
import * as extensions from './extensions';
import * as treeLimits from './tree-limits';
import * as messaging from './messaging';
import * as takeover from './takeover';
import * as tighten from './tighten';
import * as reopen from './reopen';
import { RunViews } from './run-views';
import type { Reservation } from './types';
import type { ChildCarveGrant, ExtendChildCarveRequest, TeamParent } from '../plan/requests/child-carve';

export abstract class RunRequests extends RunViews {
  // ---- what people send -------------------------------------------------------------------

  validateInterrupt(payload: unknown): void {
    takeover.validateInterrupt(this.run, payload);
  }

  interrupt(payload: unknown, now: number): InterruptVerdict {
    return takeover.interrupt(this.run, payload, now);
  }

  validateAbort(payload: unknown): void {
    takeover.validateAbort(this.run, payload);
  }

  /** Null, or the time since which the run's ledger must have aborted it for this abort to apply (takeover.ts). */
  abortNeedsLedger = (payload: unknown): { since: number } | null => takeover.abortNeedsLedger(this.run, payload);

  abort = (payload: unknown, now: number, ledger?: takeover.LedgerAbortAnswer): AbortVerdict =>
    takeover.abort(this.run, payload, now, ledger);

  cancelRequested = (now: number): void => takeover.cancelRequested(this.run, now);

  validateAdjudicate = (payload: unknown): AdjudicateRequest => decisions.validateAdjudicate(this.run, payload);

  adjudicate = (payload: unknown, now: number): AdjudicateVerdict => decisions.adjudicate(this.run, payload, now);

  /** `reopenTask` (reopen.ts): without `now`, its validator's checks only. */
  reopenTask = (payload: unknown, now?: number) => reopen.reopenTask(this.run, payload, now);

  validateBindCase = (payload: unknown): BindCaseRequest => decisions.validateBindCase(this.run, payload);

  bindCase = (payload: unknown, now: number): BindCaseVerdict => decisions.bindCase(this.run, payload, now);

  validateTightenBudget = (payload: unknown): TightenBudgetRequest => tighten.validateTightenBudget(this.run, payload);

  tightenBudget = (payload: unknown, now: number): TightenBudgetVerdict =>
    tighten.tightenBudget(this.run, payload, now);

  validateAddTasks(payload: unknown): { request: AddTasksRequest; depth: number } {
    return additions.validateAddTasks(this.run, payload);
  }

  addTasks(payload: unknown, now: number): AddTasksVerdict {
    return additions.addTasks(this.run, payload, now);
  }

  validateSendMessage(payload: unknown): SendMessageRequest {
    return messaging.validateSendMessage(this.run, payload);
  }

  sendMessage(payload: unknown, now: number): SendMessageVerdict {
    return messaging.sendMessage(this.run, payload, now);
  }

  validateReadInbox(payload: unknown): ReadInboxRequest {
    return messaging.validateReadInbox(this.run, payload);
  }

  readInbox(payload: unknown, now: number): ReadInboxAnswer {
    return messaging.readInbox(this.run, payload, now);
  }

  /** `mayAsk`: a child run asks its parent for what its own budget lacks, so its budget is not the last word. */
  validateExtendReservation(payload: unknown, mayAsk = false): ExtendReservationRequest {
    return extensions.validateExtend(this.run, payload, mayAsk);
  }

  extendReservation(payload: unknown, now: number): ExtendReservationVerdict {
    return extensions.extend(this.run, payload, now);
  }

  // ---- the tree's budget: a child asks its parent (team/child-budget.ts) ------------------

  /** A child starts for this attempt: its share of `budget.tree` (team/tree-limits.ts), null without it. */
  carveTree(key: string, fencingToken: number): treeLimits.TreeShares | null {
    return treeLimits.carveTree(this.run, key, fencingToken);
  }

  carveTasks(key: string, fencingToken: number): number | null {
    return treeLimits.carveTasks(this.run, key, fencingToken);
  }

  chargeTree(key: string, fencingToken: number, result: RunResult | null, started = true): void {
    treeLimits.chargeTree(this.run, key, fencingToken, result, started);
  }

  /** The parent this run is a child of, where the server's record (`serverParent`) agrees with its plan's stamp. */
  teamParent(serverParent: string | undefined): TeamParent | null {
    return childBudget.parentOf(this.run.plan, serverParent);
  }

  childStarted(key: string, fencingToken: number, child: { workflowId: string; runId: string }): void {
    childBudget.childStarted(this.run, key, fencingToken, child);
  }

  checkChildCarve(payload: unknown): ExtendChildCarveRequest {
    return childBudget.checkChildCarve(this.run, payload).request;
  }

  grantChildCarve(payload: unknown, now: number): ChildCarveGrant {
    return childBudget.grantChildCarve(this.run, payload, now);
  }

  carveLackFor(ask: { tokens?: number; usd?: number }): Reservation | null {
    return childBudget.lackFor(this.run, ask);
  }

  raiseCarve(grant: Reservation, now: number): void {
    childBudget.raiseCarve(this.run, grant, now);
  }

  /** This run is a child that may ask its parent for more attempts (the workflow knows its parent). */
  mayAskParentForTasks(): void {
    this.run.taskAsk.parent = true;
  }

  /** The attempts the last claim step asks the parent for (0: none). */
  get tasksWanted(): number {
    return this.run.taskAsk.wanted;
  }

  /** What this run lacks of `ask` more attempts, to grant its own child: what it asks its parent for first. */
  tasksLack(ask: number): number {
    return treeLimits.tasksLack(this.run, ask);
  }

  tasksAnswered(answer: { granted: number } | { refused: string }, now: number): void {
    childBudget.tasksAnswered(this.run, answer, now);
  }

  validateLinkRun = (payload: unknown): LinkRunRequest => coordinated.validateLinkRun(this.run, payload);

  /** A run the attempt started through its worker, aborted when the attempt ends (coordinated.ts). */
  linkRun = (payload: unknown, now: number): LinkRunVerdict => coordinated.linkRun(this.run, payload, now);

  /** Gives back an extension the shared ledger refused after the run granted it. */
  withdrawExtension(key: string, fencingToken: number, extension: { tokens: number; usd: number }, turns = 0): void {
    extensions.withdraw(this.run, key, fencingToken, extension, turns);
  }
}
