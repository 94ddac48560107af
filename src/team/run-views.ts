/**
 * What a team run shows (the base of TeamRun, run.ts): its snapshot, its counters and the queries' views.
 * Pure and deterministic, as the whole facade is.
 */
import { withTree } from './tree-limits';
import type {
  ActiveClaim,
  AdjudicationRecord,
  BudgetView,
  EventsPage,
  EventsQuery,
  MemberRecord,
  MessagesPage,
  MessagesQuery,
  RunState,
  RunStats,
  StatusView,
  TaskView,
  TasksQuery,
} from '../contract';
import { CONTINUE_AS_NEW_EVENTS } from '../plan/schema';
import { RunContext, type TeamRunSnapshot } from './context';
import * as lifecycle from './lifecycle';
import { MailHints, type MailHint } from './mail-hints';
import type { SpawnTreeEntry } from './graph';
import { childrenView, pathOf, teamIndexesOf } from './tree-views';

export type { TasksQuery } from '../contract';

/** The most task views one `tasks` query returns. */
export const MAX_TASKS_PAGE = 2_000;

export abstract class RunViews {
  protected readonly run: RunContext;
  private readonly hints = new MailHints();

  constructor(snapshot: TeamRunSnapshot) {
    this.run = new RunContext(snapshot);
  }

  /** Running agents to tell that mail came for them since the last call (mail-hints.ts). */
  mailHints(): MailHint[] {
    return this.hints.due(this.run);
  }

  snapshot(): TeamRunSnapshot {
    return this.run.snapshot();
  }

  /** Bumped on every change, so the workflow can wait for "something happened". */
  get version(): number {
    return this.run.version;
  }

  get workflowId(): string {
    return this.run.workflowId;
  }

  /** True once Temporal's cancellation was requested: the run closes as Canceled, with its result as the details. */
  get cancelling(): boolean {
    return this.run.cancelRequestedAt !== null;
  }

  get activeCount(): number {
    return this.run.leases.size;
  }

  get pendingAdjudications(): number {
    return this.run.pendingAdjudications;
  }

  /** The shared ledger the plan names (`budget.ledger`), if any. */
  get ledgerId(): string | null {
    return this.run.plan.budget.ledger ?? null;
  }

  /** Whether the run takes its ledger's slots in blocks (`budget.ledgerBlocks`). */
  get ledgerBlocks(): boolean {
    return this.run.plan.budget.ledgerBlocks === true;
  }

  /** History length at which the workflow hands the run over to a fresh workflow run. */
  get continueAsNewAfterEvents(): number {
    return this.run.plan.continueAsNewAfterEvents ?? CONTINUE_AS_NEW_EVENTS.default;
  }

  // ---- views (queries) --------------------------------------------------------------------

  state(): RunState {
    return lifecycle.state(this.run);
  }

  status(now: number): StatusView {
    const path = pathOf(this.run.workflowId);
    this.teamIndexes ??= teamIndexesOf(this.run);
    const children = childrenView(this.run, this.teamIndexes);
    return { ...lifecycle.status(this.run, now), ...(path ? { path } : {}), ...(children ? { children } : {}) };
  }

  /** Where the run's `team` tasks are, found once (none can be added while it runs). */
  private teamIndexes: number[] | undefined;

  stats(): RunStats {
    return this.run.stats();
  }

  budgetView(now: number): BudgetView {
    return withTree(this.run, this.run.budget.view(now, this.run.startedAt));
  }

  /**
   * The `tasks` query: one page, at most MAX_TASKS_PAGE views, so an answer stays far below
   * Temporal's payload limit on any run; page on with `offset`.
   */
  tasksPage(query: TasksQuery = {}): TaskView[] {
    return this.run.graph.tasksView({ ...query, limit: Math.min(query.limit ?? 1_000, MAX_TASKS_PAGE) });
  }

  activeClaims(): ActiveClaim[] {
    return this.run.leases.claimsView();
  }

  adjudicationsView(): AdjudicationRecord[] {
    return this.run.adjudications.records;
  }

  eventsView(query: EventsQuery = {}): EventsPage {
    const path = pathOf(this.run.workflowId);
    const page = this.run.events.page(query.after, query.limit);
    return path ? { ...page, path } : page;
  }

  messagesView(query: MessagesQuery = {}): MessagesPage {
    return this.run.mailbox.page(query);
  }

  membersView(): MemberRecord[] {
    return this.run.members.view();
  }

  /** Tasks added during the run, in all. */
  get addedTasks(): number {
    return this.run.spawns.count;
  }

  spawnTree(maxParents = 20, maxChildren = 20): SpawnTreeEntry[] {
    return this.run.graph.spawnTree(maxParents, maxChildren);
  }
}
