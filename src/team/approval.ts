/**
 * The `approval` executor kind's rules: a ready approval task becomes an adjudication held by
 * `coordinator`, who may decide it, and when it times out. Pure functions of the spec and the
 * record; the run applies them, and no attempt or teammate is ever involved.
 */
import type { ApprovalExecutorSpec, TaskSpec } from '../plan/schema';
import type { AdjudicationRecord } from './types';

/** The adjudication code of a task waiting for a human approval. */
export const APPROVAL_CODE = 'TEAM_TASK_APPROVAL_REQUIRED';

/** Who holds an approval request: no teammate does. */
export const APPROVAL_HOLDER = 'coordinator';

export function approvalOf(spec: TaskSpec): ApprovalExecutorSpec | null {
  return spec.executor.kind === 'approval' ? (spec.executor as ApprovalExecutorSpec) : null;
}

/** Why `actor` may not decide this approval, or null when it may (`approvers` narrows governance.operators). */
export function approverRefusal(spec: TaskSpec, actor: string | undefined): string | null {
  const approvers = approvalOf(spec)?.approvers;
  if (!approvers) return null;
  if (actor !== undefined && approvers.includes(actor)) return null;
  return `actor "${actor ?? ''}" is not one of the approvers of "${spec.key}" (${approvers.join(', ')})`;
}

/** When a pending approval is decided by its `onTimeout`, or null when it waits for ever. */
export function approvalDeadline(spec: TaskSpec, record: AdjudicationRecord): number | null {
  const approval = approvalOf(spec);
  if (!approval || approval.timeoutMs === undefined || record.code !== APPROVAL_CODE || record.decision) return null;
  return record.requestedAt + approval.timeoutMs;
}

/** The reason an approval request carries: its prompt, and how to decide it. */
export function approvalReason(spec: TaskSpec): string {
  const approval = approvalOf(spec)!;
  const who = approval.approvers ? ` by ${approval.approvers.join(' or ')}` : '';
  const timeout =
    approval.timeoutMs === undefined
      ? ''
      : `; ${approval.onTimeout ?? 'reject'} after ${approval.timeoutMs} ms without a decision`;
  return `${approval.prompt ?? `approve "${spec.title ?? spec.key}"`} (accept or reject${who}${timeout})`;
}
