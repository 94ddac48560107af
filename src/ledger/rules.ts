/**
 * Owns a budget shared by many runs (the `budgetLedger` workflow's state): slots, spend, windows
 * and its own event log. Pure and clock-injected; it knows runs only by workflow id and never
 * reaches into a run's state.
 */
import type {
  AcquireVerdict,
  LedgerAbortAllVerdict,
  LedgerExhaustion,
  LedgerExtendVerdict,
  LedgerLimitReason,
  LedgerResolveVerdict,
  LedgerRegisterVerdict,
  LedgerStatus,
  LedgerUnregisterVerdict,
  SettleVerdict,
} from '../contract';
import { isUnpriced, usageTokens } from '../team/budget';
import { EventLog } from '../team/events';
import type {
  AbortAllRequest,
  AcquireRequest,
  ConfigureRequest,
  ExtendRequest,
  LedgerLimits,
  RegisterRequest,
  ResolveRequest,
  SettleRequest,
  UnregisterRequest,
} from '../plan/requests/ledger';
import { loosenings } from './limits';
import { admissionRefusal, blockOf, crossedLimit, slotGrant } from './admission';
import { extensionRefusal, growSlot } from './extension';
import { callRefusal, configureRefusal, sameOperators, type OperatorCall, type OperatorRefusal } from './operators';
import { recordLost, resolveLost } from './recovery';
import { newSlot, scopeEventFields } from './scopes';
import { ledgerStatus, type LedgerSlot, type LedgerSnapshot } from './state';
import { registerRun, unregisterRun } from './tree';

export type { AcquireVerdict, LedgerLimitReason, LedgerStatus, SettleVerdict };
export type { LedgerSlot, LedgerSnapshot } from './state';

/** Why a cascade abort happened: the payload of the `abortRun` the ledger sends. */
export const SESSION_BUDGET_EXHAUSTED = 'session-budget-exhausted';

const SETTLED_MEMORY = 10_000;

/**
 * A budget shared by many team runs: concurrent attempts, tokens and dollars, optionally per
 * window. Pure and deterministic (the caller passes the time); the `budgetLedger` workflow
 * turns its verdicts into Temporal calls. `snapshot()` is what continue-as-new carries.
 */
export class Ledger {
  /** Bumped on every change that can move the next deadline earlier or matters to a waiter. */
  version = 0;

  private readonly s: LedgerSnapshot;
  private readonly slots = new Map<string, LedgerSlot>();
  private readonly runs = new Map<string, LedgerSnapshot['runs'][number]>();
  private readonly settled = new Set<string>();
  private readonly events: EventLog;

  static create(id: string, limits: LedgerLimits, now: number, operators?: string[]): Ledger {
    const ledger = new Ledger({
      id,
      limits,
      ...(operators ? { operators } : {}),
      createdAt: now,
      windowStartedAt: now,
      used: { tokens: 0, usd: 0, attempts: 0 },
      reserved: { tokens: 0, usd: 0 },
      slots: [],
      runs: [],
      settled: [],
      exhausted: null,
      counters: { acquired: 0, settled: 0, duplicateSettles: 0, expired: 0 },
      lastAbort: null,
      events: { nextSeq: 1, events: [] },
    });
    ledger.events.record('ledger:created', now, { limits, ...(operators ? { operators } : {}) });
    return ledger;
  }

  constructor(snapshot: LedgerSnapshot) {
    this.s = JSON.parse(JSON.stringify(snapshot)) as LedgerSnapshot;
    for (const slot of this.s.slots) this.slots.set(slot.attemptId, slot);
    for (const run of this.s.runs) this.runs.set(run.workflowId, run);
    for (const id of this.s.settled) this.settled.add(id);
    this.events = new EventLog(this.s.events, 200);
  }

  get id(): string {
    return this.s.id;
  }

  get limits(): LedgerLimits {
    return this.s.limits;
  }

  /** Who may act on the ledger as a person (absent: any actor, for the operators' own calls). */
  get operators(): readonly string[] | undefined {
    return this.s.operators;
  }

  /**
   * Why `configure` would refuse: each limit it loosens, unless an operator forces it (`force` with the `actor` who
   * does, on the list when the ledger has one), or a new operator list from an actor not on the current one.
   */
  checkConfigure(request: ConfigureRequest): OperatorRefusal | null {
    return configureRefusal(this.id, this.s.limits, this.s.operators, request);
  }

  /** `forbidden` when the ledger has operators and `actor`, making `call`, is not one of them. */
  checkOperator(actor: string | undefined, call: OperatorCall): OperatorRefusal | null {
    return callRefusal(this.id, this.s.operators, actor, call);
  }

  /**
   * Replaces the limits (an operator's `ledger create` on an existing ledger); a forced loosening is recorded with
   * who forced it.
   */
  configure(request: ConfigureRequest, now: number): void {
    const refusal = this.checkConfigure(request);
    if (refusal) throw new Error(refusal.message);
    this.expire(now);
    const { limits, operators } = request;
    const loosened = loosenings(this.s.limits, limits);
    const windowChanged = limits.windowMs !== this.s.limits.windowMs;
    const operatorsChanged = operators !== undefined && !sameOperators(this.s.operators, operators);
    this.s.limits = limits;
    if (operatorsChanged) this.s.operators = [...operators];
    if (windowChanged) this.s.windowStartedAt = now;
    this.events.record('ledger:configured', now, {
      limits,
      ...(loosened.length ? { loosened, forcedBy: request.actor } : {}),
      ...(operatorsChanged ? { operators } : {}),
      ...(request.actor ? { actor: request.actor } : {}),
    });
    this.touch();
  }

  // ---- runs -------------------------------------------------------------------------------

  /** Registers a run; answers what it works within (tree.ts: its share of `maxSpawnedTasks`, the other limits). */
  register(request: RegisterRequest, now: number): LedgerRegisterVerdict {
    this.expire(now);
    const { verdict, changed } = registerRun(this.s, this.runs, this.events, request, now);
    if (changed) this.touch();
    return verdict;
  }

  /** Forgets the run; what it holds of `maxSpawnedTasks` is charged what it added (its whole share if not said). */
  unregister(request: UnregisterRequest, now: number, why = 'run:unregistered'): LedgerUnregisterVerdict {
    if (!unregisterRun(this.s, this.runs, this.events, request, now, why)) return { ok: true, idempotent: true };
    this.touch();
    return { ok: true };
  }

  // ---- slots ------------------------------------------------------------------------------

  /** Takes a slot and a reservation for one attempt; a retried acquire of a held slot gets the same slot back. */
  acquire(request: AcquireRequest, now: number): AcquireVerdict {
    this.expire(now);
    const { attemptId } = request;
    const held = this.slots.get(attemptId);
    if (held) {
      held.expiresAt = now + held.leaseMs;
      return { ok: true, idempotent: true, expiresAt: held.expiresAt, ...blockOf(held) };
    }
    const refusal = this.check(request, now);
    if (refusal) return refusal;
    // A block counts its attempts when it settles (`attempts`): it may hold fewer than its slots.
    const { slots, reservation } = slotGrant(this.s, [...this.slots.values()], request, this.s.used);
    const slot = { ...newSlot(request, now), reservation, ...(request.slots ? { slots } : {}) };
    this.slots.set(attemptId, slot);
    if (slot.scope) this.events.record('scope:acquired', now, scopeEventFields(slot));
    this.s.reserved.tokens += reservation.tokens;
    this.s.reserved.usd += reservation.usd;
    if (!request.slots) this.s.used.attempts += 1;
    this.s.counters.acquired += 1;
    this.touch();
    return { ok: true, expiresAt: slot.expiresAt, ...blockOf(slot) };
  }

  /** Why `acquire` would refuse at `now`, changing nothing (the validator: a refusal leaves no trace); null: fits. */
  check(request: AcquireRequest, now: number): Extract<AcquireVerdict, { ok: false }> | null {
    return admissionRefusal(this.s, [...this.slots.values()], this.settled, request, now);
  }

  /** Why `extend` would refuse, without changing anything (the update's validator); null when it fits. */
  checkExtend(request: ExtendRequest, now: number): Extract<LedgerExtendVerdict, { ok: false }> | null {
    return extensionRefusal(this.s, [...this.slots.values()], request, now);
  }

  /** Grows a running attempt's slot by what its run granted it more, if the limits allow; once per extension id. */
  extend(request: ExtendRequest, now: number): LedgerExtendVerdict {
    this.expire(now);
    const refusal = this.checkExtend(request, now);
    if (refusal) return refusal;
    const slot = this.slots.get(request.attemptId)!;
    const idempotent = !growSlot(this.s, slot, request);
    if (!idempotent) this.touch();
    return { ok: true, ...(idempotent ? { idempotent: true as const } : {}), reservation: { ...slot.reservation } };
  }

  /** Extends a slot's lease; false when the attempt holds none (settled, expired, unknown). */
  renew(attemptId: string, now: number): boolean {
    const slot = this.slots.get(attemptId);
    if (!slot || slot.expiresAt <= now) return false;
    slot.expiresAt = now + slot.leaseMs;
    return true;
  }

  /** Extends the leases of every slot named (`renewSlots`); how many still held one. */
  renewAll(attemptIds: readonly string[], now: number): number {
    return attemptIds.filter((attemptId) => this.renew(attemptId, now)).length;
  }

  /**
   * Charges an attempt's actual usage and releases its slot and reservation. Idempotent by
   * attempt id: a retried settle charges nothing. A settle after the slot expired still
   * charges (the usage was real).
   */
  settle(request: SettleRequest, now: number): SettleVerdict {
    this.expire(now);
    const { attemptId } = request;
    if (this.settled.has(attemptId)) {
      this.s.counters.duplicateSettles += 1;
      this.touch();
      return { ok: true, duplicate: true, charged: { tokens: 0, usd: 0 }, crossed: null, abort: [] };
    }
    const slot = this.slots.get(attemptId);
    if (slot) this.release(slot, now, 'settled');
    this.s.used.attempts += request.attempts ?? 0;
    this.s.counters.settled += 1;
    this.remember(attemptId);
    const { maxTokens, maxUsd } = this.s.limits;
    if (request.lost && (maxTokens !== undefined || maxUsd !== undefined)) {
      // Unknown usage that a spend limit cannot count: what it held stays held, admission waits for an operator.
      recordLost(this.s, this.events, { attemptId, ...request.lost }, now, slot?.reservation);
      this.touch();
      return { ok: true, duplicate: false, charged: { tokens: 0, usd: 0 }, crossed: null, abort: [] };
    }
    // Without a spend limit a lost attempt is charged its reservation, as a run's own budget charges it.
    const charged = request.lost
      ? { ...request.lost.reservation }
      : { tokens: usageTokens(request.usage), usd: request.usage?.costUsd ?? 0 };
    const { crossed, abort } = this.charge(charged, isUnpriced(request.usage), attemptId, now);
    this.touch();
    return { ok: true, duplicate: false, charged, crossed, abort };
  }

  /**
   * Settles every lost attempt (an operator's `teamrun ledger resolve`): the usage recorded, or their reservations
   * as the charge; admission then resumes. Null when no attempt waits for recovery.
   */
  resolve(request: ResolveRequest, now: number): { verdict: LedgerResolveVerdict; abort: string[] } | null {
    const refusal = this.checkOperator(request.actor, 'resolve');
    if (refusal) throw new Error(refusal.message);
    this.expire(now);
    const resolution = resolveLost(this.s, this.events, request, now);
    if (!resolution) return null;
    const { abort } = this.charge(resolution.charged, isUnpriced(request.usage), null, now);
    this.touch();
    return { verdict: { ok: true, resolution }, abort };
  }

  /**
   * Adds a charge to what is used; one that crosses a hard limit exhausts the ledger and aborts every run on it.
   * Unpriced usage while `maxUsd` is set exhausts it too (the dollars are unknown), but aborts nothing: attempts in
   * flight settle, as a run's own budget lets them.
   */
  private charge(
    charged: { tokens: number; usd: number },
    unpriced: boolean,
    attemptId: string | null,
    now: number,
  ): { crossed: LedgerExhaustion | null; abort: string[] } {
    this.s.used.tokens += charged.tokens;
    this.s.used.usd += charged.usd;
    const crossed = crossedLimit(this.s, unpriced);
    if (!crossed) return { crossed, abort: [] };
    this.s.exhausted = { reason: crossed, at: now };
    this.events.record('ledger:limit-crossed', now, { reason: crossed, attemptId, used: { ...this.s.used } });
    if (crossed === 'unpriced-usage') return { crossed, abort: [] };
    return { crossed, abort: this.abortTargets(SESSION_BUDGET_EXHAUSTED, `ledger:${this.id}`, now) };
  }

  private release(slot: LedgerSlot, now: number, why: 'settled' | 'expired'): void {
    this.slots.delete(slot.attemptId);
    if (slot.scope) this.events.record('scope:released', now, { ...scopeEventFields(slot), why });
    this.s.reserved.tokens = Math.max(0, this.s.reserved.tokens - slot.reservation.tokens);
    this.s.reserved.usd = Math.max(0, this.s.reserved.usd - slot.reservation.usd);
  }

  private remember(attemptId: string): void {
    this.settled.add(attemptId);
    this.s.settled.push(attemptId);
    if (this.s.settled.length > SETTLED_MEMORY) {
      for (const old of this.s.settled.splice(0, this.s.settled.length - SETTLED_MEMORY)) this.settled.delete(old);
    }
  }

  /**
   * Moves the clock: a new window starts (usage and exhaustion reset) and slots whose lease
   * ran out are freed. Every operation calls it first, so timers only decide when, not what.
   */
  expire(now: number): { expired: LedgerSlot[]; windowReset: boolean } {
    let windowReset = false;
    const windowMs = this.s.limits.windowMs;
    if (windowMs !== undefined && now >= this.s.windowStartedAt + windowMs) {
      this.s.windowStartedAt += Math.floor((now - this.s.windowStartedAt) / windowMs) * windowMs;
      this.events.record('ledger:window-reset', now, {
        previous: { ...this.s.used },
        windowStartedAt: this.s.windowStartedAt,
      });
      this.s.used = { tokens: 0, usd: 0, attempts: 0 };
      this.s.exhausted = null;
      windowReset = true;
    }
    const expired: LedgerSlot[] = [];
    for (const slot of this.slots.values()) {
      if (slot.expiresAt > now) continue;
      expired.push(slot);
      this.release(slot, now, 'expired');
      this.s.counters.expired += 1;
      const { attemptId, workflowId, expiresAt } = slot;
      this.events.record('slot:expired', now, { attemptId, workflowId, expiresAt });
    }
    // No run settles outside work whose holder died: its usage is unknown, settled as a run's lost attempt is.
    for (const { attemptId, workflowId, reservation, outside } of expired) {
      if (outside) this.settle({ attemptId, usage: null, lost: { reservation, workflowId } }, now);
    }
    if (windowReset || expired.length) this.touch();
    return { expired, windowReset };
  }

  /** When `expire` next has something to do: the earliest slot expiry or window reset. */
  nextDeadline(): number | null {
    let next: number | null = null;
    for (const slot of this.slots.values()) if (next === null || slot.expiresAt < next) next = slot.expiresAt;
    const windowMs = this.s.limits.windowMs;
    if (windowMs !== undefined) {
      const reset = this.s.windowStartedAt + windowMs;
      if (next === null || reset < next) next = reset;
    }
    return next;
  }

  // ---- cascade abort ----------------------------------------------------------------------

  /** An operator stops every registered run now; the ledger stays open for new ones. */
  abortAll(request: AbortAllRequest, now: number): LedgerAbortAllVerdict {
    const refusal = this.checkOperator(request.actor, 'abortAll');
    if (refusal) throw new Error(refusal.message);
    this.expire(now);
    const runs = this.abortTargets(
      request.reason ?? SESSION_BUDGET_EXHAUSTED,
      request.actor ?? `ledger:${this.id}`,
      now,
    );
    this.touch();
    return { ok: true, runs };
  }

  private abortTargets(reason: string, actor: string, now: number): string[] {
    const runs = [...this.runs.keys()];
    this.s.lastAbort = { reason, actor, at: now, runs };
    this.events.record('ledger:abort-all', now, { reason, actor, runs });
    return runs;
  }

  /** A run the ledger could not reach (it no longer exists) is forgotten. */
  forget(workflowId: string, now: number): void {
    this.unregister({ workflowId }, now, 'run:unreachable');
  }

  // ---- views ------------------------------------------------------------------------------

  status(now: number): LedgerStatus {
    return ledgerStatus(this.s, [...this.slots.values()], [...this.runs.values()], this.events.snapshot().events, now);
  }

  snapshot(): LedgerSnapshot {
    return JSON.parse(
      JSON.stringify({
        ...this.s,
        slots: [...this.slots.values()],
        runs: [...this.runs.values()],
        events: this.events.snapshot(),
      }),
    ) as LedgerSnapshot;
  }

  private touch(): void {
    this.version += 1;
  }
}
