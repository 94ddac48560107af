"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.APPROVAL_HOLDER = exports.APPROVAL_CODE = void 0;
exports.approvalOf = approvalOf;
exports.approverRefusal = approverRefusal;
exports.approvalDeadline = approvalDeadline;
exports.approvalReason = approvalReason;
/** The adjudication code of a task waiting for a human approval. */
exports.APPROVAL_CODE = 'TEAM_TASK_APPROVAL_REQUIRED';
/** Who holds an approval request: no teammate does. */
exports.APPROVAL_HOLDER = 'coordinator';
function approvalOf(spec) {
    return spec.executor.kind === 'approval' ? spec.executor : null;
}
/** Why `actor` may not decide this approval, or null when it may (`approvers` narrows governance.operators). */
function approverRefusal(spec, actor) {
    const approvers = approvalOf(spec)?.approvers;
    if (!approvers)
        return null;
    if (actor !== undefined && approvers.includes(actor))
        return null;
    return `actor "${actor ?? ''}" is not one of the approvers of "${spec.key}" (${approvers.join(', ')})`;
}
/** When a pending approval is decided by its `onTimeout`, or null when it waits for ever. */
function approvalDeadline(spec, record) {
    const approval = approvalOf(spec);
    if (!approval || approval.timeoutMs === undefined || record.code !== exports.APPROVAL_CODE || record.decision)
        return null;
    return record.requestedAt + approval.timeoutMs;
}
/** The reason an approval request carries: its prompt, and how to decide it. */
function approvalReason(spec) {
    const approval = approvalOf(spec);
    const who = approval.approvers ? ` by ${approval.approvers.join(' or ')}` : '';
    const timeout = approval.timeoutMs === undefined
        ? ''
        : `; ${approval.onTimeout ?? 'reject'} after ${approval.timeoutMs} ms without a decision`;
    return `${approval.prompt ?? `approve "${spec.title ?? spec.key}"`} (accept or reject${who}${timeout})`;
}
