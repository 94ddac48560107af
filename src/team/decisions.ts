/**
 * Human decisions on tasks awaiting adjudication (`adjudicate`: retry, accept, reject), checked
 * in the order CONTRACT.md gives and applied once per decisionId, and approval tasks: asked for
 * when they become ready, decided by a person or by their `onTimeout`. The records and the
 * decision log are adjudications.ts's; this moves the tasks.
 */
import type { AdjudicateVerdict, BindCaseVerdict } from '../contract';
import { jsonBytes } from '../plan/bytes';
import {
  APPROVAL_CODE,
  APPROVAL_HOLDER,
  approvalDeadline,
  approvalOf,
  approvalReason,
  approverRefusal,
} from './approval';
import { RUN_LIMITS, clip } from './bounds';
import type { RunContext } from './context';
import {
  AdjudicateRequestSchema,
  BindCaseRequestSchema,
  MESSAGE_LIMITS,
  TeamControlError,
  parseControl,
  type AdjudicateRequest,
  type BindCaseRequest,
} from '../plan/requests/control';
import { DECISION_CHAIN, requestFacts } from './case-chain';
import { checkActor } from './governance';

/** Every check of an `adjudicate` request, in the order the contract gives; throws `TeamControlError`. */
export function validateAdjudicate(run: RunContext, payload: unknown): AdjudicateRequest {
  const request = parseControl(AdjudicateRequestSchema, payload, 'adjudicate');
  const resultBytes = jsonBytes(request.result);
  if (resultBytes > MESSAGE_LIMITS.resultBytes) {
    throw new TeamControlError(
      'value_too_large',
      `adjudicate: result: ${resultBytes} bytes of JSON, over the ${MESSAGE_LIMITS.resultBytes}-byte bound on a ` +
        `task's output (store large results elsewhere and pass a reference)`,
      'result',
    );
  }
  checkActor(run.plan, request.actor, 'adjudicate');
  if (run.adjudications.isDecided(request.decisionId)) return request;
  const i = run.graph.indexOf(request.key);
  if (i === undefined) throw new TeamControlError('not_found', `adjudicate: no task "${request.key}"`);
  const notApprover = approverRefusal(run.spec(i), request.actor);
  if (notApprover) throw new TeamControlError('forbidden', `adjudicate: ${notApprover}`);
  const record = run.adjudications.pending(request.key);
  const task = run.graph.tasks[i];
  if (task.status !== 'adjudication' || !record) {
    throw new TeamControlError(
      'adjudication_not_required',
      `adjudicate: task "${request.key}" is ${task.status}, not awaiting adjudication`,
    );
  }
  if (request.evidenceDigest !== undefined && request.evidenceDigest !== record.evidenceDigest) {
    throw new TeamControlError(
      'evidence_mismatch',
      `adjudicate: evidenceDigest "${request.evidenceDigest}" differs from the recorded ` +
        `"${record.evidenceDigest ?? ''}"`,
    );
  }
  if (request.caseId !== undefined) caseRefusal(request.key, record.caseId, request.caseId, 'adjudicate');
  if (request.decision === 'accept' && !run.canHold(request.result ?? record.result ?? null)) {
    const bytes = jsonBytes(request.result ?? record.result ?? null);
    throw new TeamControlError('value_too_large', `adjudicate: result: ${run.outputsFullMessage(bytes)}`, 'result');
  }
  if (request.decision === 'retry' && !run.acceptingWork) {
    throw new TeamControlError(
      'run_not_accepting_work',
      `adjudicate: the run ${run.abort ? 'was aborted' : run.closed ? 'is closing' : 'stopped on its budget'}; only ` +
        `accept or reject apply`,
    );
  }
  return request;
}

export function adjudicate(run: RunContext, payload: unknown, now: number): AdjudicateVerdict {
  const request = validateAdjudicate(run, payload);
  if (run.adjudications.isDecided(request.decisionId)) return earlierDecision(run, request.decisionId);
  return decide(run, request, now);
}

/** Applies a decision already checked (by `validateAdjudicate`, or an approval's timeout). */
function decide(run: RunContext, request: AdjudicateRequest, now: number): AdjudicateVerdict {
  const i = run.graph.indexOf(request.key)!;
  const task = run.graph.tasks[i];
  const record = run.adjudications.pending(request.key)!;
  if (request.caseId !== undefined) record.caseId = request.caseId;
  record.decision = {
    decisionId: request.decisionId,
    decision: request.decision,
    actor: request.actor ?? null,
    reason: request.reason === undefined ? null : clip(request.reason, RUN_LIMITS.decidedReasonChars),
    decidedAt: now,
  };
  if (run.patched(DECISION_CHAIN)) {
    record.decision.chain = run.adjudications.link(requestFacts(request, record.caseId ?? null));
  }
  run.events.record('task:adjudicated', now, {
    key: task.key,
    decision: request.decision,
    decisionId: request.decisionId,
    actor: record.decision.actor,
  });
  if (request.decision === 'retry') {
    task.uncounted = task.attempts;
    task.lastError = null;
    run.graph.makeReady(i, now);
  } else if (request.decision === 'accept') {
    run.succeed(i, request.result ?? record.result ?? null, now);
  } else {
    run.fail(i, `rejected by adjudication${request.reason ? `: ${request.reason}` : ''}`, now);
  }
  run.adjudications.clipDecided(record);
  run.adjudications.remember(request.decisionId, task.key);
  run.forgetOldDecided();
  run.touch();
  const { chain } = record.decision;
  return { ok: true as const, task: run.graph.view(i), ...(chain ? { chain } : {}) };
}

/** A case bound already to another id refuses a new one: a case is bound once. */
function caseRefusal(key: string, bound: string | null | undefined, caseId: string, message: string): void {
  if (bound && bound !== caseId) {
    throw new TeamControlError(
      'case_already_bound',
      `${message}: the adjudication of "${key}" is bound to case "${bound}" already; a case is bound once`,
      'caseId',
    );
  }
}

/** Every check of a `bindCase` request: a known task, awaiting adjudication, with no other case bound. */
export function validateBindCase(run: RunContext, payload: unknown): BindCaseRequest {
  const request = parseControl(BindCaseRequestSchema, payload, 'bindCase');
  checkActor(run.plan, request.actor, 'bindCase');
  if (run.graph.indexOf(request.key) === undefined) {
    throw new TeamControlError('not_found', `bindCase: no task "${request.key}"`);
  }
  const record = run.adjudications.pending(request.key);
  if (!record) {
    throw new TeamControlError(
      'adjudication_not_required',
      `bindCase: task "${request.key}" is not awaiting adjudication; a case is bound to a pending one`,
    );
  }
  caseRefusal(request.key, record.caseId, request.caseId, 'bindCase');
  return request;
}

/** Binds the case (`adjudication:case-bound`); the same case again answers `idempotent`. */
export function bindCase(run: RunContext, payload: unknown, now: number): BindCaseVerdict {
  const request = validateBindCase(run, payload);
  const record = run.adjudications.pending(request.key)!;
  const { key, caseId } = request;
  if (record.caseId === caseId) return { ok: true, idempotent: true, key, caseId };
  record.caseId = caseId;
  run.events.record('adjudication:case-bound', now, { key, caseId, actor: request.actor ?? null });
  run.touch();
  return { ok: true, key, caseId };
}

/** A decision repeated: the same verdict, with the task as it is now (its decision is final, or moved it on). */
function earlierDecision(run: RunContext, decisionId: string): AdjudicateVerdict & { idempotent: true } {
  const i = run.graph.indexOf(run.adjudications.decidedKey(decisionId))!;
  // Its link, while its record is held (the newest RUN_LIMITS.decidedAdjudications are).
  const chain = run.adjudications.records.find((r) => r.decision?.decisionId === decisionId)?.decision?.chain;
  return { ok: true, idempotent: true, task: run.graph.view(i), ...(chain ? { chain } : {}) };
}

/**
 * Approval tasks that became ready go straight to adjudication: no activity, no teammate,
 * no reservation. Each request has a fencing token of its own, so a `retry` asks again.
 */
export function requestApprovals(run: RunContext, now: number): void {
  // Claiming asks on every step: a run without approval tasks must not walk its ready queue each time.
  if (!hasApprovalTasks(run)) return;
  const ready = [...run.graph.ready.inOrder()].filter((i) => approvalOf(run.spec(i)) !== null);
  for (const i of ready) {
    const task = run.graph.tasks[i];
    run.graph.ready.remove(i);
    task.fencingToken += 1;
    task.startedAt ??= now;
    const request = {
      holder: APPROVAL_HOLDER,
      leaseId: `${run.workflowId}/${task.key}/${task.fencingToken}`,
      fencingToken: task.fencingToken,
    };
    run.toAdjudication(i, APPROVAL_CODE, request, now, { reason: approvalReason(run.spec(i)) });
  }
  if (ready.length) run.touch();
}

/**
 * Approvals nobody decided within their `timeoutMs`: decided by their `onTimeout` (reject unless the plan says accept).
 */
export function expireApprovals(run: RunContext, now: number): void {
  // A copy: deciding may forget old decided records, which splices the list.
  for (const record of run.adjudications.records.slice()) {
    const i = run.graph.indexOf(record.key);
    const deadline = i === undefined ? null : approvalDeadline(run.spec(i), record);
    if (i === undefined || deadline === null || deadline > now) continue;
    const decision = approvalOf(run.spec(i))?.onTimeout ?? 'reject';
    const decisionId = `approval-timeout:${record.key}:${record.fencingToken}`;
    const reason = `no decision within ${approvalOf(run.spec(i))?.timeoutMs} ms`;
    decide(run, { key: record.key, decision, decisionId, reason }, now);
  }
}

/** Rule change: an abort decides pending approvals at once (runs recorded before it waited for their timers). */
export const ABORT_REJECTS_APPROVALS = 'teamrun-abort-rejects-approvals';

/**
 * An abort asks no human any more: each approval still waiting is rejected on the abort's behalf
 * (its dependents were skipped by the abort already), so the run closes instead of waiting for an
 * approver or a timer. Other adjudications (attempts the abort stopped) still wait for a person.
 */
export function rejectApprovalsOnAbort(run: RunContext, now: number): void {
  const waiting = run.adjudications.records.filter((r) => r.code === APPROVAL_CODE && !r.decision);
  if (waiting.length === 0 || !run.patched(ABORT_REJECTS_APPROVALS)) return;
  const by = run.abort?.actor ?? 'an operator';
  const why = run.abort?.reason ? `: ${run.abort.reason}` : '';
  for (const record of waiting) {
    const decisionId = `abort:${record.key}:${record.fencingToken}`;
    const reason = `run aborted by ${by} before a decision${why}`;
    decide(run, { key: record.key, decision: 'reject', decisionId, actor: run.abort?.actor ?? undefined, reason }, now);
  }
}

/** The earliest time a pending approval times out, if any does. */
export function nextApprovalDeadline(run: RunContext): number | null {
  return run.adjudications.approvalDeadline((key) => {
    const i = run.graph.indexOf(key);
    return i === undefined ? undefined : run.spec(i);
  });
}

/** Approval tasks counted so far per graph: tasks are only ever appended, so only the new ones are looked at. */
const approvalCounts = new WeakMap<object, { size: number; count: number }>();

function hasApprovalTasks(run: RunContext): boolean {
  const { specs } = run.graph;
  const known = approvalCounts.get(run.graph) ?? { size: 0, count: 0 };
  let { count } = known;
  for (let i = known.size; i < specs.length; i++) if (approvalOf(specs[i]) !== null) count += 1;
  approvalCounts.set(run.graph, { size: specs.length, count });
  return count > 0;
}
