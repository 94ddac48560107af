import type { Usage } from '../../plan/schema';
import type { TeamrunConfig } from '../../config/config';
import { TeamrunError } from '../../errors';
import type { MailMessage } from '../../team/mailbox';
import type { AttemptAccess, AttemptIdentity, AttemptLink, AttemptLogs } from '../interface';
import type { Redactor } from '../redact';
import type { ToolboxFactory } from '../tools/types';
import type { MailboxAccess } from './mailbox-access';
import { traceparent } from '../../telemetry/spans';
import type { LiveOutput } from './live';
import type { WorkerModels } from './model/provider';

/** What an executor gets for one attempt. */
export interface ExecutorContext extends AttemptIdentity {
  /** Aborted when the attempt is cancelled (interrupt, abort, lease gone, worker shutting down). */
  signal: AbortSignal;
  /**
   * Aborted as soon as the worker begins to shut down (before the grace ends and `signal` aborts): an
   * executor between two steps should start no new one, and hand the attempt back (model-retry.ts `handBack`).
   */
  stopping?: AbortSignal;
  dependencyOutputs: Record<string, unknown>;
  /** Mailbox messages waiting for the task when the attempt started. */
  inbox: MailMessage[];
  /**
   * Sends a mailbox message as this attempt, through the worker's attempt gateway (proven and confirmed as
   * `teamrun send` is); a refusal throws `MailboxRefused` with its code. Absent on a worker without a gateway.
   */
  sendMessage?: MailboxAccess['sendMessage'];
  /** Reads what waits in the task's inbox now (advancing its cursor unless `peek`), as `teamrun inbox` does. */
  readInbox?: MailboxAccess['readInbox'];
  /** The plan lets this task add tasks (`allowSpawn`): an llm answer's `tasks` field is then taken. */
  allowSpawn?: boolean;
  /** The task's `outputSchema`: the attempt's output is checked against it (src/activities/output-check.ts). */
  outputSchema?: Record<string, unknown>;
  /** Progress shown in the attempt's heartbeat details; the heartbeat itself runs on its own timer. */
  progress(details: unknown): void;
  config: TeamrunConfig;
  env: NodeJS.ProcessEnv;
  /** The worker's secrets: whatever an executor reports passes through it, before any cut. */
  redactor: Redactor;
  /** How the attempt's own processes speak to its run as the attempt (the worker's attempt gateway). */
  attemptGateway?: AttemptAccess;
  /** The attempt's reservation, live: usage is counted against it as it is reported (issue 26). */
  budget?: LiveBudget;
  /**
   * Tells the attempt's stall watch the work moved (`stallAfterMs`, docs/leases.md#stalls); `step` names what
   * moved, for the adjudication of a stall. Every `progress` call counts too. Absent where nothing watches.
   */
  moved?(step: string): void;
  /** Records a step of an agent-like attempt as a run event (`agent:turn`, `agent:tool`). */
  emit?: (event: AttemptStepEvent) => void;
  /** Partial output of a model call in progress (streaming), shown live; absent where nothing publishes it. */
  live?: LiveOutput;
  /** The worker's tools for this attempt (agent kinds). */
  tools?: ToolboxFactory;
  /** Models given to createWorker({ models }), by the name a task gives (`model:`); before `worker.models`. */
  models?: WorkerModels;
}

/**
 * What the run granted an attempt and what it has reported so far. `report` and `reserve` resolve
 * `false` once the run refused more: the attempt is then being stopped with
 * `TEAM_TASK_BUDGET_EXCEEDED`, and the executor should end (its signal aborts too).
 */
export interface LiveBudget {
  readonly granted: { tokens: number; usd: number };
  readonly used: { tokens: number; usd: number };
  /** Asks before spending: resolves true once what is left of the grant (extended if needed) covers `ask`. */
  reserve(ask: { tokens?: number; usd?: number; turns?: number }): Promise<boolean>;
  /** Why the run refused, once it did (the attempt is being stopped); null before. */
  readonly refusal?: { code: string; message: string } | null;
  /** Counts usage as it is reported (priced by the worker); past the grant it asks for the overshoot. */
  report(usage: Usage): Promise<boolean>;
  /**
   * Gives back what `reserve` set aside and the usage reported since did not spend, so the next `reserve` asks for
   * its whole amount (an agent's model call: what the run holds stays the usage so far plus the call in flight).
   */
  release?(): Promise<void>;
  /**
   * Says what the attempt spent cannot be known (a model call cut before its usage came): the run charges the
   * attempt at least its reservation and marks the budget's usage unknown, as for a lost lease (docs/budgets.md).
   */
  markUnknown?(): void;
  /** The run's `maxUsd` is set: spending on a model without a price would stop the run (check it first). */
  readonly pricesRequired?: boolean;
}

/** A step of an agent attempt, as its run records it (CONTRACT: events `agent:turn`, `agent:tool`). */
export type AttemptStepEvent =
  | { type: 'agent:turn'; turn: number; inputTokens: number; outputTokens: number; tools: string[] }
  | { type: 'agent:tool'; turn: number; tool: string; ms: number; ok: boolean };

/**
 * Usage as one record or as records each priced on its own (its own model or its own cost):
 * an executor that saw several usage reports hands them over separately.
 */
export type ReportedUsage = Usage | Usage[];

export interface ExecutorResult {
  output?: unknown;
  usage?: ReportedUsage;
  logs?: AttemptLogs;
  links?: AttemptLink[];
  /** Mailbox messages (`{ to, subject?, body }`) the run sends as this task if the attempt settles it. */
  messages?: unknown[];
  /** Tasks to add (TaskSpec-shaped), applied by the run only when this attempt settles its task. */
  tasks?: unknown[];
}

/** An executor kind: runs one attempt of a task whose `executor.kind` names it. */
export type Executor = (
  spec: Record<string, unknown> & { kind: string },
  ctx: ExecutorContext,
) => Promise<ExecutorResult>;

/** A failure an executor reports on purpose; usage and output travel with it to the budget and the record. */
export class ExecutorError extends TeamrunError {
  get code(): string {
    return this.type;
  }
  readonly nonRetryable: boolean;
  readonly type: string;
  readonly usage?: ReportedUsage;
  readonly output?: unknown;
  readonly logs?: AttemptLogs;
  readonly links?: AttemptLink[];
  readonly messages?: unknown[];

  constructor(message: string, options: { nonRetryable?: boolean; type?: string } & ExecutorResult = {}) {
    super(message);
    this.name = 'ExecutorError';
    this.nonRetryable = options.nonRetryable ?? false;
    this.type = options.type ?? 'TeamExecutorFailed';
    this.usage = options.usage;
    this.output = options.output;
    this.logs = options.logs;
    this.links = options.links;
    this.messages = options.messages;
  }
}

/**
 * The variables every side effect of an attempt can use to fence its writes, and, with tracing on,
 * `TRACEPARENT` (W3C): the attempt's span, for the process's own spans to join the run's trace.
 */
export function attemptEnv(ctx: AttemptIdentity): Record<string, string> {
  const parent = traceparent();
  return {
    ...(parent ? { TRACEPARENT: parent } : {}),
    TEAMRUN_WORKFLOW_ID: ctx.workflowId,
    TEAMRUN_TASK_KEY: ctx.taskKey,
    TEAMRUN_ATTEMPT: String(ctx.attempt),
    TEAMRUN_FENCING_TOKEN: String(ctx.fencingToken),
    TEAMRUN_LEASE_ID: ctx.leaseId,
  };
}
