/**
 * The contract's fixed names as types: the workflow and activity types, the search attributes
 * and their status keywords, and the failure types an attempt or a run can end with. The values
 * live beside the code that uses them (src/workflows, src/activities) and are checked against these.
 */

export type WorkflowType = 'teamRun';
/** The activity type of an attempt teamrun's own workers run. */
export type TaskActivityType = 'runTask';

export type SearchAttributeName = 'TeamRunStatus' | 'TeamRunPendingAdjudications' | 'TeamRunBudgetStopped' | 'TeamName';

/** `TeamRunStatus` values: the run's `RunState` in PascalCase (`awaiting_adjudication` -> `AwaitingAdjudication`). */
export type StatusKeyword =
  'Running' | 'AwaitingAdjudication' | 'Succeeded' | 'Failed' | 'Aborted' | 'BudgetStopped' | 'Unresolved';

/**
 * Failure types (`ApplicationFailure.type`) teamrun gives an attempt or a run. Custom executors may
 * use their own; these are the ones the run, the CLI and reports tell apart.
 */
export type FailureType =
  /** The run's input is not a valid plan. */
  | 'InvalidTeamPlan'
  /** The worker shut down: the attempt is handed back to be re-leased, not adjudicated. */
  | 'TeamWorkerShutdown'
  | 'TeamExecutorNotEnabled'
  | 'TeamInvalidExecutor'
  | 'TeamExecutorSpecInvalid'
  | 'TeamExecutorFailed'
  | 'TeamExecutorCrashed'
  | 'TeamExecutorTimeout'
  | 'TeamOutputTooLarge'
  | 'TeamInvalidUsage'
  /** The run refused the attempt more budget while it ran: it was stopped, and goes to adjudication. */
  | 'TEAM_TASK_BUDGET_EXCEEDED'
  /** The attempt made no step for its `stallAfterMs`: its worker stopped it, and it goes to adjudication. */
  | 'TEAM_TASK_STALLED'
  /** The model provider stayed down for all of the task's `modelRetry`: the task goes to adjudication. */
  | 'TEAM_TASK_MODEL_UNAVAILABLE'
  /** The worker's `beforeTask` hook refused the attempt: it fails for good with the hook's message. */
  | 'TEAM_TASK_HOOK_REFUSED'
  /** A worker hook (`beforeTask`, `afterTask`, `onLeaseChanged`) threw. */
  | 'TEAM_TASK_HOOK_FAILED'
  /** A worker hook ran past its bound (`createWorker({ hooks: { timeoutMs } })`). */
  | 'TEAM_TASK_HOOK_TIMEOUT'
  | 'TeamShellFailed'
  | 'TeamShellTooBig'
  | 'TeamShellBadCwd'
  | 'TeamShellCwdRefused'
  | 'TeamShellCommandRefused'
  | 'TeamShellEnvRefused'
  /** A `::teamrun-*::` line that is not its prefix and one line of valid JSON. */
  | 'TeamShellMalformedLine'
  | 'TeamShellContainment'
  | 'TeamHttpHostRefused'
  | 'TeamHttpBodyTooLarge'
  | 'TeamHttpTooManyRedirects'
  | 'TeamHttpUnreachable'
  | 'TeamLlmBadResponse'
  | 'TeamLlmUnreachable'
  /** A shared ledger had no slot yet (retried), or refused the attempt for good. */
  | 'TeamLedgerBusy'
  | 'TeamLedgerRefused'
  /** Another workflow holds the shared ledger's id (`ledger:<name>`); named in the message (non-retryable). */
  | 'TeamLedgerSquatted'
  /**
   * An activity of a teamrun worker started by a client on its own (a standalone activity), not scheduled by a
   * workflow: refused before it runs (non-retryable).
   */
  | 'TeamActivityNotScheduled'
  /** An agent's task lists a tool its worker does not have (non-retryable). */
  | 'TeamUnknownTool'
  /** An MCP server the task's tools name could not list its tools (retried). */
  | 'TeamToolServerFailed'
  /** The task's output does not match its `outputSchema` (an agent's after two answers sent back); not retried. */
  | 'TEAM_TASK_OUTPUT_INVALID'
  /** An agent task whose `role` was not resolved to a model (the plan's `agents` name it); not retried. */
  | 'TeamAgentNoModel';
