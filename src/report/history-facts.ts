/**
 * What a run's history says, as history.ts decodes it: each attempt (its input, end and what it
 * printed), the control messages and how the workflow closed. Shapes only; build.ts reads them.
 */
import type { AttemptLogs, RunTaskInput } from '../activities/interface';
import type { RunResult } from '../contract';
import type { TeamPlanInput, Usage } from '../plan/schema';
import type { AgentStepRecord, ControlRecord } from './model';

export type AttemptLink = { url: string; label?: string };

/** What an attempt printed (a bounded tail of each stream) and the links it printed (`::teamrun-link::`). */
export interface AttemptPrinted {
  logs: AttemptLogs | null;
  links: AttemptLink[];
}

/** How the history says an attempt ended (before the run's rules give it a meaning). */
export type AttemptEnd =
  | ({ kind: 'completed'; usage: Usage | null; worker: string | null } & Partial<AttemptPrinted>)
  | ({
      kind: 'failed';
      type: string | null;
      message: string;
      usage: Usage | null;
      worker: string | null;
    } & Partial<AttemptPrinted>)
  | { kind: 'timed-out'; timeoutType: string; worker: string | null }
  | ({ kind: 'cancelled'; usage: Usage | null; worker: string | null } & Partial<AttemptPrinted>);

export interface HistoryAttempt {
  input: RunTaskInput;
  /** Which run of the continue-as-new chain scheduled it (index into the chain, oldest first). */
  runIndex: number;
  /** Its ActivityTaskScheduled event: the Web UI shows the attempt at this event id. */
  scheduledEventId: number;
  activityId: string;
  summary: string | null;
  scheduledAt: number;
  startedAt: number | null;
  worker: string | null;
  cancelRequestedAt: number | null;
  end: (AttemptEnd & { at: number }) | null;
  /**
   * A governed run asked the attempt's worker to confirm its result and got no yes (src/workflows/completion.ts): the
   * run settled it as a lost lease, whoever completed the activity.
   */
  unproven?: true;
}

export type WorkflowClose =
  | { kind: 'completed'; at: number; result: RunResult }
  /** A team run closes Canceled with its RunResult as the cancellation's details. */
  | { kind: 'cancelled'; at: number; message: string; result: RunResult | null }
  | { kind: 'failed' | 'terminated' | 'timed-out'; at: number; message: string };

/** What a run's history (all of its continue-as-new chain) says, decoded. */
export interface HistoryFacts {
  plan: TeamPlanInput | null;
  startedAt: number;
  close: WorkflowClose | null;
  attempts: HistoryAttempt[];
  control: ControlRecord[];
  /** Agent steps; `stepsDropped` counts those past REPORT_STEPS_MAX. */
  steps: AgentStepRecord[];
  stepsDropped: number;
}
