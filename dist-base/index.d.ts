/**
 * teamrun as a library: plans (schema, types, validation) and starting and steering runs.
 * Workers: `teamrun/worker`; the client alone: `teamrun/client`; fenced resources: `teamrun/fenced`.
 */
export { TeamPlanSchema, TaskSchema, ExecutorSchema, BudgetSchema, UsageSchema, BUILTIN_EXECUTOR_SCHEMAS, PLAN_LIMITS, type TeamPlan, type TeamPlanInput, type TaskSpec, type ExecutorSpec, type BudgetLimits, type Usage, } from './plan/schema';
export { validatePlan, formatProblems, type PlanProblem, type PlanValidation } from './plan/validate';
export { loadPlanFile } from './plan/load';
export { planJsonSchema } from './plan/json-schema';
export * from './client';
export { TeamrunError } from './errors';
export { loadConfig, ConfigSchema, type TeamrunConfig } from './config/config';
export { connectionOptions, type ConnectionOptions } from './config/connection';
export { SEARCH_ATTRIBUTE_TYPES, TeamName, TeamRunStatus, TeamRunPendingAdjudications, TeamRunBudgetStopped, } from './workflows/search-attributes';
export { TASK_STATUSES } from './team/types';
/** The public contract's types (src/contract): views, answers, refusal codes, names. */
export type * from './contract';
export type { RunStatusView } from './workflows/messages';
