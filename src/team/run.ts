import type {
  AddTasksVerdict,
  AdjudicateVerdict,
  InterruptionView,
  MessagesPage,
  ReadInboxAnswer,
  SendMessageVerdict,
} from '../contract';
import type { AddTasksRequest, ExecutorSpec, TeamPlan } from '../plan/schema';
import { approvalDeadline, approvalOf, approverRefusal } from './approval';
import {
  BROADCAST,
  COORDINATOR,
  ReadInboxSchema,
  SendMessageSchema,
  parseMailbox,
  type MessagesQuery,
  type ReadInboxRequest,
  type SendMessageRequest,
} from './mailbox';
import type { IdleHookRequest, MemberRecord } from './members';
import { Budget } from './budget';
import {
  ABORT_CODE_DEFAULT,
  AbortRequestSchema,
  AdjudicateRequestSchema,
  InterruptRequestSchema,
  MESSAGE_LIMITS,
  TeamControlError,
  jsonBytes,
  parseControl,
  type AbortRequest,
  type AbortVerdict,
  type AdjudicateRequest,
  type InterruptVerdict,
} from './control';
import { RUN_LIMITS, clip } from './bounds';
import { ledgerActor } from './ledger-requests';
import { TeamRunCore, newTaskState } from './run-core';
import type { AdjudicationRecord, Attempt, Interruption, TaskState } from './types';
import { taskView, type TaskView } from './views';

export { MAX_TASKS_PAGE, type TasksQuery, type TeamRunSnapshot } from './run-core';

/**
 * One team run: its state and rules (`TeamRunCore`) and what people may send it — take over a
 * task, abort the run, decide an adjudication — each checked in the order CONTRACT.md gives.
 */
export class TeamRun extends TeamRunCore {
  static start(plan: TeamPlan, workflowId: string, now: number): TeamRun {
    const tasks: TaskState[] = plan.tasks.map((spec) => newTaskState(spec.key, spec.dependsOn.length ? 'blocked' : 'ready', now));
    const run = new TeamRun({
      plan,
      workflowId,
      startedAt: now,
      tasks,
      budget: Budget.create(plan.budget).snapshot(),
      adjudications: [],
      decisions: {},
      abort: null,
      closed: null,
      cancelRequestedAt: null,
      executions: 0,
      maxConcurrent: 0,
      events: { nextSeq: 1, events: [] },
    });
    run.events.record('run:start', now, { name: plan.name, tasks: plan.tasks.length, teammates: plan.teammates });
    return run;
  }

  /** Throws `forbidden` when governance names operators and `actor` is not one of them. */
  checkActor(actor: string | undefined, message: string): void {
    const operators = this.plan.governance?.operators;
    // The run's shared ledger may abort it (a cascade abort), whoever governance names.
    const ledger = this.plan.budget.ledger;
    if (message === 'abortRun' && ledger !== undefined && actor === ledgerActor(ledger)) return;
    if (operators && !(actor && operators.includes(actor))) {
      throw new TeamControlError('forbidden', `${message}: actor "${actor ?? ''}" is not one of governance.operators`);
    }
  }

  /** Validates an interruptTask payload for the update validator (shape and governance only). */
  validateInterrupt(payload: unknown): void {
    const request = parseControl(InterruptRequestSchema, payload, 'interruptTask');
    this.checkActor(request.actor, 'interruptTask');
  }

  interrupt(payload: unknown, now: number): InterruptVerdict {
    let request;
    try {
      request = parseControl(InterruptRequestSchema, payload, 'interruptTask');
      this.checkActor(request.actor, 'interruptTask');
    } catch (err) {
      return this.rejected('interruptTask', payload, err as TeamControlError, now) as InterruptVerdict;
    }
    const control = { requestId: request.requestId ?? null, actor: request.actor ?? null };
    const attempt = this.active.get(request.key);
    const reject = (reason: 'not_active' | 'stale_attempt' | 'already_interrupted'): InterruptVerdict => {
      this.events.record('control:rejected', now, { message: 'interruptTask', key: request.key, reason, ...control });
      this.touch();
      return { ok: false, reason };
    };
    if (!attempt || (attempt.stop && attempt.stop.kind !== 'interrupt')) {
      // A client retrying a request that already landed (and whose attempt has since settled) gets the same answer.
      const settled = this.settledInterruption(request.key, request.fencingToken, control.requestId);
      if (settled) return this.duplicate('interruptTask', control, now, { ok: true, idempotent: true, interruption: settled });
      return reject('not_active');
    }
    if (request.fencingToken !== attempt.fencingToken) return reject('stale_attempt');
    if (attempt.stop?.kind === 'interrupt') {
      if (attempt.stop.interruption.requestId !== control.requestId) return reject('already_interrupted');
      const interruption = this.interruptionView(request.key, attempt);
      return this.duplicate('interruptTask', control, now, { ok: true, idempotent: true, interruption });
    }
    const interruption: Interruption = {
      ...control,
      reason: request.reason ?? null,
      evidenceDigest: request.evidenceDigest ?? null,
      requestedAt: now,
    };
    attempt.stop = { kind: 'interrupt', interruption };
    this.pendingCancels.push({ key: request.key, fencingToken: attempt.fencingToken });
    this.events.record('task:interrupt-requested', now, {
      key: request.key,
      fencingToken: attempt.fencingToken,
      ...control,
      reason: interruption.reason,
    });
    this.touch();
    return { ok: true, interruption: this.interruptionView(request.key, attempt) };
  }

  private interruptionView(key: string, attempt: Attempt): InterruptionView {
    const interruption = attempt.stop?.kind === 'interrupt' ? attempt.stop.interruption : null;
    return { key, holder: attempt.holder, leaseId: attempt.leaseId, fencingToken: attempt.fencingToken, ...interruption };
  }

  /** The interruption of attempt `fencingToken` by `requestId`, once that attempt has settled into adjudication. */
  private settledInterruption(key: string, fencingToken: number | undefined, requestId: string | null) {
    const record = this.latestAdjudication(key);
    if (!record || record.code !== 'TEAM_TASK_HUMAN_INTERRUPTED') return null;
    if (record.fencingToken !== fencingToken || record.requestId !== requestId) return null;
    const { holder, leaseId, actor, reason, evidenceDigest, requestedAt } = record;
    return { key, holder, leaseId, fencingToken, requestId, actor, reason, evidenceDigest, requestedAt };
  }

  /** A control message repeated with the same id changes nothing but is still on the record. */
  private duplicate<T>(message: string, control: { requestId: string | null; actor: string | null }, now: number, verdict: T): T {
    this.events.record('control:idempotent', now, { message, ...control });
    this.touch();
    return verdict;
  }

  /**
   * Every check of an `addTasks` request, in order: its shape; a task adding work must name
   * itself as `parent`, send its current fencing token (a stale attempt adds nothing) and have
   * `allowSpawn`; anyone else is checked against governance; then the run must take work, the
   * tasks pass the plan's checks against the running graph, and the spawn limits hold. A
   * requestId already taken answers as it did. Throws `TeamControlError`.
   */
  validateAddTasks(payload: unknown): { request: AddTasksRequest; depth: number } {
    const checked = this.checkAddition(payload);
    const { request } = checked;
    if (request.parent !== undefined && request.fencingToken !== undefined) {
      const attempt = this.active.get(request.parent);
      if (!attempt || attempt.fencingToken !== request.fencingToken) {
        throw new TeamControlError(
          'stale_attempt',
          `addTasks: fencing token ${request.fencingToken} of "${request.parent}" is not its current attempt's (${attempt ? attempt.fencingToken : 'none running'})`,
        );
      }
      if (!this.specs[this.index.get(request.parent)!].allowSpawn) {
        throw new TeamControlError('forbidden', `addTasks: task "${request.parent}" has no "allowSpawn": true in the plan`);
      }
    } else {
      this.checkActor(request.actor, 'addTasks');
    }
    // A run with nothing left to do is closing: tasks added now would never run.
    if (this.phase() === 'done' && !this.spawns.earlier(request.requestId)) {
      throw new TeamControlError('run_not_accepting_work', 'addTasks: the run has finished its work and is closing; it takes no new tasks');
    }
    return checked;
  }

  addTasks(payload: unknown, now: number): AddTasksVerdict {
    const { request, depth } = this.validateAddTasks(payload);
    return this.applyAddition(request, depth, now);
  }

  validateAbort(payload: unknown): void {
    const request = parseControl(AbortRequestSchema, payload ?? {}, 'abortRun');
    this.checkActor(request.actor, 'abortRun');
  }

  /** Coordinator abort: nothing new starts, active attempts are stopped, the rest skipped. */
  abort(payload: unknown, now: number): AbortVerdict {
    let request;
    try {
      request = parseControl(AbortRequestSchema, payload ?? {}, 'abortRun');
      this.checkActor(request.actor, 'abortRun');
    } catch (err) {
      return this.rejected('abortRun', payload, err as TeamControlError, now) as AbortVerdict;
    }
    if (this.abortInfo) {
      const control = { requestId: request.requestId ?? null, actor: request.actor ?? null };
      return this.duplicate('abortRun', control, now, { ok: true, idempotent: true, activeClaims: this.active.size });
    }
    return this.applyAbort(request, now);
  }

  /**
   * Temporal cancelled the workflow (`temporal workflow cancel`, the UI's button): an abort that
   * Temporal's own authorization already allowed. With `awaitAdjudication` the run then waits for
   * its adjudications like any aborted run; either way it closes as Canceled, not Completed.
   */
  cancelRequested(now: number): void {
    if (this.cancelRequestedAt !== null) return;
    if (!this.abortInfo) this.applyAbort({ reason: 'workflow cancellation requested', actor: 'temporal' }, now);
    this.cancelRequestedAt = now;
    this.events.record('run:cancel-requested', now, { activeClaims: this.active.size, pending: this.pendingAdjudications });
    this.touch();
  }

  private applyAbort(request: AbortRequest, now: number): AbortVerdict {
    this.abortInfo = {
      reason: request.reason ?? null,
      requestId: request.requestId ?? null,
      actor: request.actor ?? null,
      at: now,
      code: request.code ?? ABORT_CODE_DEFAULT,
    };
    const activeClaims = this.active.size;
    this.events.record('run:abort-requested', now, { ...this.abortInfo, activeClaims });
    this.stopActive({ kind: 'abort', requireAdjudication: request.requireAdjudication ?? true });
    this.skipNotStarted('run_aborted', now);
    this.touch();
    return { ok: true, activeClaims };
  }

  /** Every check of an `adjudicate` request, in the order the contract gives; throws `TeamControlError`. */
  validateAdjudicate(payload: unknown): AdjudicateRequest {
    const request = parseControl(AdjudicateRequestSchema, payload, 'adjudicate');
    const resultBytes = jsonBytes(request.result);
    if (resultBytes > MESSAGE_LIMITS.resultBytes) {
      throw new TeamControlError(
        'value_too_large',
        `adjudicate: result: ${resultBytes} bytes of JSON, over the ${MESSAGE_LIMITS.resultBytes}-byte bound on a task's output (store large results elsewhere and pass a reference)`,
        'result',
      );
    }
    this.checkActor(request.actor, 'adjudicate');
    if (Object.hasOwn(this.decisions, request.decisionId)) return request;
    const i = this.index.get(request.key);
    if (i === undefined) throw new TeamControlError('not_found', `adjudicate: no task "${request.key}"`);
    const notApprover = approverRefusal(this.specs[i], request.actor);
    if (notApprover) throw new TeamControlError('forbidden', `adjudicate: ${notApprover}`);
    const record = this.pendingAdjudication(request.key);
    if (this.tasks[i].status !== 'adjudication' || !record) {
      throw new TeamControlError(
        'adjudication_not_required',
        `adjudicate: task "${request.key}" is ${this.tasks[i].status}, not awaiting adjudication`,
      );
    }
    if (request.evidenceDigest !== undefined && request.evidenceDigest !== record.evidenceDigest) {
      throw new TeamControlError(
        'evidence_mismatch',
        `adjudicate: evidenceDigest "${request.evidenceDigest}" differs from the recorded "${record.evidenceDigest ?? ''}"`,
      );
    }
    if (request.decision === 'accept' && !this.canHold(request.result ?? record.result ?? null)) {
      throw new TeamControlError(
        'value_too_large',
        `adjudicate: result: ${this.outputsFullMessage(jsonBytes(request.result ?? record.result ?? null))}`,
        'result',
      );
    }
    if (request.decision === 'retry' && !this.acceptingWork) {
      throw new TeamControlError(
        'run_not_accepting_work',
        `adjudicate: the run ${this.abortInfo ? 'was aborted' : this.closed ? 'is closing' : 'stopped on its budget'}; only accept or reject apply`,
      );
    }
    return request;
  }

  adjudicate(payload: unknown, now: number): AdjudicateVerdict {
    const request = this.validateAdjudicate(payload);
    if (Object.hasOwn(this.decisions, request.decisionId)) return this.earlierDecision(request.decisionId);
    return this.decide(request, now);
  }

  /** Applies a decision already checked (by `validateAdjudicate`, or an approval's timeout). */
  private decide(request: AdjudicateRequest, now: number): { ok: true; task: TaskView } {
    const i = this.index.get(request.key)!;
    const task = this.tasks[i];
    const record = this.pendingAdjudication(request.key)!;
    record.decision = {
      decisionId: request.decisionId,
      decision: request.decision,
      actor: request.actor ?? null,
      reason: request.reason === undefined ? null : clip(request.reason, RUN_LIMITS.decidedReasonChars),
      decidedAt: now,
    };
    this.events.record('task:adjudicated', now, {
      key: task.key,
      decision: request.decision,
      decisionId: request.decisionId,
      actor: record.decision.actor,
    });
    if (request.decision === 'retry') {
      task.uncounted = task.attempts;
      task.readyAt = now;
      task.lastError = null;
      this.setStatus(task, 'ready');
      this.ready.add(i);
    } else if (request.decision === 'accept') {
      this.succeed(i, request.result ?? record.result ?? null, now);
    } else {
      this.fail(i, `rejected by adjudication${request.reason ? `: ${request.reason}` : ''}`, now);
    }
    this.settleRecord(record);
    this.remember(request.decisionId, task.key);
    this.forgetOldDecided();
    this.touch();
    return { ok: true as const, task: taskView(task, this.specs[i]) };
  }

  /**
   * A decided record keeps who decided what and its evidence (counted in the run's bound on
   * outputs); its reason is clipped to what a reader of old decisions needs.
   */
  private settleRecord(record: AdjudicationRecord): void {
    if (record.reason !== null) record.reason = clip(record.reason, RUN_LIMITS.decidedReasonChars);
  }

  /**
   * Remembers a decision id with the key it decided, nothing more: the task holds its output,
   * and a value must be held once. The newest RUN_LIMITS.decisionIds are kept.
   */
  private remember(decisionId: string, key: string): void {
    const ids = Object.keys(this.decisions);
    const seq = ids.reduce((max, id) => Math.max(max, this.decisions[id].seq ?? 0), 0) + 1;
    this.decisions[decisionId] = { ok: true, task: { key }, seq };
    if (ids.length + 1 <= RUN_LIMITS.decisionIds) return;
    let oldest = decisionId;
    for (const id of ids) if ((this.decisions[id].seq ?? 0) < (this.decisions[oldest].seq ?? Infinity)) oldest = id;
    delete this.decisions[oldest];
  }

  /** A decision repeated: the same verdict, with the task as it is now (its decision is final, or moved it on). */
  private earlierDecision(decisionId: string): { ok: true; idempotent: true; task: TaskView } {
    const i = this.index.get(this.decisions[decisionId].task.key)!;
    return { ok: true, idempotent: true, task: taskView(this.tasks[i], this.specs[i]) };
  }

  /** Approvals nobody decided within their `timeoutMs`: decided by their `onTimeout` (reject unless the plan says accept). */
  expireApprovals(now: number): void {
    for (const record of [...this.adjudications]) {
      const i = this.index.get(record.key);
      const deadline = i === undefined ? null : approvalDeadline(this.specs[i], record);
      if (i === undefined || deadline === null || deadline > now) continue;
      const decision = approvalOf(this.specs[i])?.onTimeout ?? 'reject';
      const decisionId = `approval-timeout:${record.key}:${record.fencingToken}`;
      this.decide({ key: record.key, decision, decisionId, reason: `no decision within ${approvalOf(this.specs[i])?.timeoutMs} ms` }, now);
    }
  }

  // ---- mailbox and members ----------------------------------------------------------------

  /** Every check of a `sendMessage` request but capacity (which only sending knows); throws `TeamControlError`. */
  validateSendMessage(payload: unknown): SendMessageRequest {
    const request = parseMailbox(SendMessageSchema, payload, 'sendMessage');
    const i = this.index.get(request.from);
    if (request.fencingToken !== undefined || i !== undefined) {
      // A task sends as itself, with its live attempt's token: a stale attempt's word is refused.
      const attempt = this.active.get(request.from);
      if (i === undefined || !attempt || attempt.fencingToken !== request.fencingToken) {
        throw new TeamControlError(
          'stale_attempt',
          `sendMessage: "${request.from}" has no live attempt with fencing token ${request.fencingToken ?? '(none)'}${attempt ? ` (the live one is ${attempt.fencingToken})` : ''}`,
        );
      }
    } else {
      if (/^teammate-\d+$/.test(request.from) || request.from === BROADCAST) {
        throw new TeamControlError('TEAM_MAILBOX_MESSAGE_INVALID', `sendMessage: from "${request.from}" is not a sender (a task key with its fencing token, "${COORDINATOR}" or an operator)`);
      }
      this.checkActor(request.actor ?? (request.from === COORDINATOR ? undefined : request.from), 'sendMessage');
    }
    this.mailbox.check(request);
    return request;
  }

  sendMessage(payload: unknown, now: number): SendMessageVerdict {
    const request = this.validateSendMessage(payload);
    this.clock = now;
    try {
      const message = this.mailbox.send(request, now);
      return { ok: true, id: message.id };
    } finally {
      this.touch();
    }
  }

  /** `readInbox`: the live attempt of `key` reads what waits for it. */
  validateReadInbox(payload: unknown): ReadInboxRequest {
    const request = parseControl(ReadInboxSchema, payload, 'readInbox');
    const attempt = this.active.get(request.key);
    if (this.index.get(request.key) === undefined) throw new TeamControlError('not_found', `readInbox: no task "${request.key}"`);
    if (!attempt || attempt.fencingToken !== request.fencingToken) {
      throw new TeamControlError(
        'stale_attempt',
        `readInbox: "${request.key}" has no live attempt with fencing token ${request.fencingToken}${attempt ? ` (the live one is ${attempt.fencingToken})` : ''}`,
      );
    }
    return request;
  }

  readInbox(payload: unknown, now: number): ReadInboxAnswer {
    const request = this.validateReadInbox(payload);
    this.clock = now;
    const attempt = this.active.get(request.key)!;
    const messages = this.mailbox.deliver(request.key, attempt.holder, request.peek === true);
    this.touch();
    return { messages };
  }

  messagesView(query: MessagesQuery = {}): MessagesPage {
    return this.mailbox.page(query);
  }

  membersView(): MemberRecord[] {
    return this.members.view();
  }

  /** Idle hooks to start now (`hooks.teammateIdle`), with the executor to run. */
  drainIdleHooks(): Array<IdleHookRequest & { executor: ExecutorSpec }> {
    const executor = this.plan.hooks?.teammateIdle?.executor;
    const hooks = this.members.drainHooks();
    return executor ? hooks.map((hook) => ({ ...hook, executor })) : [];
  }

  /** A hook's end, on the record; it never touches a task. */
  hookEnded(hook: IdleHookRequest, outcome: { ok: boolean; error?: string }, now: number): void {
    this.events.record(outcome.ok ? 'hook:completed' : 'hook:failed', now, {
      hook: 'teammateIdle',
      holder: hook.member.holder,
      seq: hook.seq,
      ...(outcome.error ? { error: outcome.error.slice(0, 300) } : {}),
    });
    this.touch();
  }

  private pendingAdjudication(key: string): AdjudicationRecord | undefined {
    const record = this.latestAdjudication(key);
    return record?.decision ? undefined : record;
  }

  private latestAdjudication(key: string): AdjudicationRecord | undefined {
    for (let r = this.adjudications.length - 1; r >= 0; r--) {
      if (this.adjudications[r].key === key) return this.adjudications[r];
    }
    return undefined;
  }

  private rejected(message: string, payload: unknown, err: TeamControlError, now: number) {
    const fields = typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>) : {};
    // Bounded: a rejected payload may be oversized, and the event log lives in workflow memory.
    const said = (value: unknown) => (typeof value === 'string' ? value.slice(0, 200) : null);
    this.events.record('control:rejected', now, {
      message,
      reason: err.code ?? 'invalid_request',
      field: err.field ?? null,
      detail: err.message.slice(0, 500),
      actor: said(fields.actor),
      requestId: said(fields.requestId),
    });
    this.touch();
    return { ok: false, reason: err.code ?? 'invalid_request', message: err.message };
  }
}
