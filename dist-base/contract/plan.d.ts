/**
 * The plan, as the contract states it. Every type here is inferred from the zod schemas in
 * src/plan/schema.ts, which stay the single source of the plan's shape; this module only names
 * them for consumers. Type-only: importing it loads neither zod nor the schemas.
 */
export type { ActivityExecutorSpec, ApprovalExecutorSpec, BudgetLimits, BuiltinExecutorKind, ExecutorSpec, TaskSpec, TeamPlan, TeamPlanInput, Usage, } from '../plan/schema';
export type { AddTasksRequest, AddTasksRequestInput } from '../plan/requests/add-tasks';
export type { PlanProblem, PlanValidation } from '../plan/validate';
/** `PlanProblem.code`: what `validatePlan`, `teamrun validate` and an `addTasks` refusal name. */
export type PlanProblemCode = 'schema' | 'not_json' | 'unreadable' | 'empty' | 'plan_too_large' | 'too_many_tasks' | 'invalid_scope' | 'unknown_executor_kind' | 'duplicate_key' | 'self_dependency' | 'unknown_dependency' | 'duplicate_dependency' | 'cycle' | 'activity_queue_not_allowed' | 'activity_with_ledger' | 'approver_not_operator';
