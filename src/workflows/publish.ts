/**
 * What the run shows outside: the current details the Web UI renders (made as they are read), the
 * search attributes operators filter on (only when one of them changed: each upsert is a
 * command in history), and its metrics and spans (telemetry.ts, no command at all).
 */
import { upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { RunLedger } from '../ledger/run-ledger';
import type { TeamRun } from '../team/run';
import { currentDetails, type RecentLinks } from './details';
import { detailsOnQuery } from '../sdk/details-on-query';
import * as sa from './search-attributes';
import type { TaskSpans } from './task-spans';
import { RunTelemetry } from './telemetry';

export class Publisher {
  private published = '';
  private readonly telemetry: RunTelemetry;

  constructor(
    private readonly run: TeamRun,
    private readonly links: RecentLinks,
    private readonly ledger: RunLedger | null,
    spans: TaskSpans,
  ) {
    this.telemetry = new RunTelemetry(run, Date.now(), spans);
    detailsOnQuery(() => this.details());
  }

  /** The current details the Web UI renders, made as the run stands whenever they are read. */
  private details(): string {
    const waiting = this.ledger?.waitingLine();
    return (
      currentDetails(this.run, Date.now(), this.links.recent, workflowInfo().namespace) +
      (waiting ? `\n- ledger: ${waiting}` : '')
    );
  }

  publish(): void {
    const { run } = this;
    this.telemetry.record(Date.now());
    const state = run.state();
    const budget = run.budgetView(Date.now());
    const key = `${state}|${run.pendingAdjudications}|${budget.stopped}`;
    if (key === this.published) return;
    this.published = key;
    upsertSearchAttributes([
      { key: sa.TeamName, value: run.status(Date.now()).name },
      { key: sa.TeamRunStatus, value: sa.statusKeyword(state) },
      { key: sa.TeamRunPendingAdjudications, value: run.pendingAdjudications },
      { key: sa.TeamRunBudgetStopped, value: budget.stopped },
    ]);
  }
}
