/**
 * The `approval` executor kind's rules: a ready approval task becomes an adjudication held by
 * `coordinator`, who may decide it, and when it times out. Pure functions of the spec and the
 * record; the run applies them, and no attempt or teammate is ever involved.
 */
import type { ApprovalExecutorSpec, TaskSpec } from '../plan/schema';
import type { AdjudicationRecord } from './types';
/** The adjudication code of a task waiting for a human approval. */
export declare const APPROVAL_CODE = "TEAM_TASK_APPROVAL_REQUIRED";
/** Who holds an approval request: no teammate does. */
export declare const APPROVAL_HOLDER = "coordinator";
export declare function approvalOf(spec: TaskSpec): ApprovalExecutorSpec | null;
/** Why `actor` may not decide this approval, or null when it may (`approvers` narrows governance.operators). */
export declare function approverRefusal(spec: TaskSpec, actor: string | undefined): string | null;
/** When a pending approval is decided by its `onTimeout`, or null when it waits for ever. */
export declare function approvalDeadline(spec: TaskSpec, record: AdjudicationRecord): number | null;
/** The reason an approval request carries: its prompt, and how to decide it. */
export declare function approvalReason(spec: TaskSpec): string;
