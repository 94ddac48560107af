/**
 * What the run shows outside: the current details the Web UI renders (every step), the
 * search attributes operators filter on (only when one of them changed: each upsert is a
 * command in history), and its metrics and spans (telemetry.ts, no command at all).
 */
import { setCurrentDetails, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { RunLedger } from '../ledger/run-ledger';
import type { TeamRun } from '../team/run';
import { currentDetails, type RecentLinks } from './details';
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
  }

  /** The current details alone: no command, so a handler may call it whatever the loop does. */
  details(): void {
    const waiting = this.ledger?.waitingLine();
    setCurrentDetails(
      currentDetails(this.run, Date.now(), this.links.recent, workflowInfo().namespace) +
        (waiting ? `\n- ledger: ${waiting}` : ''),
    );
  }

  publish(): void {
    const { run } = this;
    this.telemetry.record(Date.now());
    const state = run.state();
    const budget = run.budgetView(Date.now());
    const key = `${state}|${run.pendingAdjudications}|${budget.stopped}`;
    this.details();
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
