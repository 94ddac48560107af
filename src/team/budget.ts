/**
 * The run's budget: reservations before a claim, charges when an attempt settles, the stop
 * reason, and the `budget` view (shape declared in src/contract). Owns its snapshot slice; knows
 * nothing of tasks, leases or the clock beyond the times it is given.
 */
import type { BudgetView } from '../contract';
import type { BudgetLimits } from '../plan/schema';
import { TIGHTENED_LIMITS } from '../plan/requests/control';
import type { BudgetReason, ReportedUsage, Reservation } from './types';
import { TreeHolds } from './tree-holds';

/** The limits `tightenBudget` may lower. */
export type TightenedLimits = Partial<Record<(typeof TIGHTENED_LIMITS)[number], number>>;

export type { BudgetView };

export interface BudgetSnapshot {
  limits: BudgetLimits;
  /** `turns`: agent model calls admitted (absent in older snapshots: none). */
  used: { tasks: number; tokens: number; usd: number; turns?: number };
  reserved: { tokens: number; usd: number };
  inFlight: number;
  stopped: boolean;
  reason: BudgetReason | null;
  /**
   * An attempt's outcome, and with it its usage, was lost: `used` counts at least its reservation. Absent in older
   * snapshots.
   */
  usageUnknown?: boolean;
  /** What each running child team (`<key>#<token>`) holds of `maxTasks` (team/tree-limits.ts). Absent until one did. */
  heldTasks?: Record<string, number>;
}

export type ReserveResult = { ok: true; reservation: Reservation } | { ok: false; reason: BudgetReason };

export type ExtendResult = { ok: true; extension: Reservation } | { ok: false; reason: BudgetReason };

export type ChargeResult = { ok: true; tokens: number; usd: number } | { ok: false; reason: 'unpriced-usage' };

/** Half a micro-dollar: a limit is reached within it. */
const USD_STEP = 1e-6;
/** Dollars as whole nano-dollars, the precision sums are kept to: comparisons in them are exact. */
const nanos = (usd: number) => Math.round(usd * 1e9);
const HALF_MICRO = 500;
/** Dollar sums are kept to the nano-dollar (the price table's precision), so float error never accumulates. */
const sumUsd = (a: number, b: number) => Math.round((a + b) * 1e9) / 1e9;

export function usageTokens(usage: ReportedUsage | null | undefined): number {
  if (!usage) return 0;
  return (
    (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0) + (usage.cacheTokens ?? 0) + (usage.cacheWriteTokens ?? 0)
  );
}

/** Usage with tokens (or a model) but no price: while `maxUsd` is set it cannot be trusted to fit. */
export function isUnpriced(usage: ReportedUsage | null | undefined): boolean {
  if (!usage) return false;
  return (
    (usage.unpricedTokens ?? 0) > 0 ||
    (usage.costUsd === undefined && (usageTokens(usage) > 0 || usage.model !== undefined))
  );
}

/**
 * The run's budget: a reservation is taken before an attempt is claimed (no reservation,
 * no claim) and released when it settles, when its actual usage is charged instead.
 */
export class Budget {
  private readonly s: BudgetSnapshot;
  /** What each running child team (`<key>#<token>`) holds of `maxTasks` (team/tree-limits.ts). */
  readonly childTasks: TreeHolds;

  constructor(snapshot: BudgetSnapshot) {
    this.s = structuredCloneish(snapshot);
    this.childTasks = new TreeHolds({ held: this.s.heldTasks ?? {}, charged: 0 });
  }

  static create(limits: BudgetLimits): Budget {
    return new Budget({
      limits,
      used: { tasks: 0, tokens: 0, usd: 0 },
      reserved: { tokens: 0, usd: 0 },
      inFlight: 0,
      stopped: false,
      reason: null,
    });
  }

  get stopped(): boolean {
    return this.s.stopped;
  }

  get reason(): BudgetReason | null {
    return this.s.reason;
  }

  get limits(): BudgetLimits {
    return this.s.limits;
  }

  /**
   * Reserves one attempt: its estimate, or a fair share of what remains
   * (`ceil(remaining / freeSlots)`), so that many teammates together cannot overspend.
   * `freeSlots` counts the slot this attempt would take.
   */
  reserve(estimate: { tokens?: number; usd?: number } | undefined, freeSlots: number): ReserveResult {
    const refused = this.shortOf(estimate, freeSlots);
    if (refused) return { ok: false, reason: refused.reason };
    const { tokens, usd: asked } = this.sizeOf(estimate, freeSlots);
    const { used, reserved, limits } = this.s;
    const usd = limits.maxUsd === undefined ? asked : Math.min(nanos(asked), this.remainingNanoUsd()) / 1e9;
    used.tasks += 1;
    reserved.tokens += tokens;
    reserved.usd = sumUsd(reserved.usd, usd);
    this.s.inFlight += 1;
    return { ok: true, reservation: { tokens, usd } };
  }

  /**
   * What a reservation of `estimate` (or a fair share) would hold. Dollars are compared and divided in whole
   * nano-dollars (the price table's precision): a fair share is never more than what remains, and what remains
   * exactly always fits (a share rounded up to the micro-dollar once refused an amount a float sum had put a hair
   * below it, and the last teammate waited).
   */
  sizeOf(estimate: { tokens?: number; usd?: number } | undefined, freeSlots: number): Reservation {
    const { limits, used, reserved } = this.s;
    const slots = Math.max(1, freeSlots);
    let tokens = estimate?.tokens ?? 0;
    if (limits.maxTokens !== undefined && estimate?.tokens === undefined)
      tokens = Math.max(0, Math.ceil((limits.maxTokens - used.tokens - reserved.tokens) / slots));
    let usd = estimate?.usd ?? 0;
    if (limits.maxUsd !== undefined && estimate?.usd === undefined)
      // Rounded up to the micro-dollar, and never more than what remains.
      usd =
        Math.max(0, Math.min(Math.ceil(this.remainingNanoUsd() / slots / 1_000) * 1_000, this.remainingNanoUsd())) /
        1e9;
    return { tokens, usd };
  }

  /** Why `reserve` would refuse, with what it needs and what is free; null when it fits. */
  shortOf(
    estimate: { tokens?: number; usd?: number } | undefined,
    freeSlots: number,
  ): { reason: BudgetReason; needs: Reservation; free: Reservation } | null {
    const { limits, used, reserved } = this.s;
    const needs = this.sizeOf(estimate, freeSlots);
    const free = {
      tokens: limits.maxTokens === undefined ? Infinity : limits.maxTokens - used.tokens - reserved.tokens,
      usd: limits.maxUsd === undefined ? Infinity : this.remainingNanoUsd() / 1e9,
    };
    const short = (reason: BudgetReason) => ({ reason, needs, free });
    if (limits.maxTasks !== undefined && used.tasks + this.tasksHeld + 1 > limits.maxTasks) return short('max-tasks');
    if (limits.maxTokens !== undefined && (free.tokens <= 0 || needs.tokens > free.tokens)) return short('max-tokens');
    if (limits.maxUsd !== undefined) {
      const left = this.remainingNanoUsd();
      // Within half a micro-dollar a limit is reached, and an estimate that close to what remains fits (capped).
      if (left <= HALF_MICRO || nanos(needs.usd) > left + HALF_MICRO) return short('max-usd');
    }
    return null;
  }

  /** What `maxUsd` leaves once usage and reservations are counted, in whole nano-dollars (0 without the limit). */
  private remainingNanoUsd(): number {
    const { limits, used, reserved } = this.s;
    if (limits.maxUsd === undefined) return 0;
    return nanos(limits.maxUsd) - nanos(used.usd) - nanos(reserved.usd);
  }

  /** What is reserved now, tokens and dollars. */
  get reservedNow(): Reservation {
    return { ...this.s.reserved };
  }

  /**
   * Extends a running attempt's reservation by `ask`, all of it or nothing: what remains once usage and every
   * reservation are counted must cover it. The caller adds the extension to the attempt's reservation, so that
   * settlement releases both. A stopped budget grants nothing more.
   */
  extend(ask: { tokens?: number; usd?: number }): ExtendResult {
    const { limits, used, reserved } = this.s;
    if (this.s.stopped) return { ok: false, reason: this.s.reason ?? 'max-tokens' };
    const tokens = ask.tokens ?? 0;
    const usd = ask.usd ?? 0;
    if (limits.maxTokens !== undefined && tokens > limits.maxTokens - used.tokens - reserved.tokens)
      return { ok: false, reason: 'max-tokens' };
    if (limits.maxUsd !== undefined && nanos(usd) > this.remainingNanoUsd()) return { ok: false, reason: 'max-usd' };
    reserved.tokens += tokens;
    reserved.usd = sumUsd(reserved.usd, usd);
    return { ok: true, extension: { tokens, usd } };
  }

  /**
   * What `ask` lacks of what remains, for each limit the run has (tokens and dollars): null when `extend` would
   * grant it. A child run asks its parent for this much before it extends (team/child-budget.ts).
   */
  lackFor(ask: { tokens?: number; usd?: number }): Reservation | null {
    const { limits, used, reserved } = this.s;
    const tokens =
      limits.maxTokens === undefined
        ? 0
        : Math.max(0, (ask.tokens ?? 0) - (limits.maxTokens - used.tokens - reserved.tokens));
    const usd = limits.maxUsd === undefined ? 0 : Math.max(0, nanos(ask.usd ?? 0) - this.remainingNanoUsd()) / 1e9;
    return tokens > 0 || usd > 0 ? { tokens: Math.ceil(tokens), usd } : null;
  }

  /** Attempts counted against `maxTasks`: this run's, and what its ended child teams' trees made. */
  get tasksUsed(): number {
    return this.s.used.tasks;
  }

  /** What running child teams hold of `maxTasks`. */
  get tasksHeld(): number {
    return this.childTasks.held;
  }

  /** Attempts of `maxTasks` neither made nor held by running child teams (Infinity without the limit). */
  get tasksLeft(): number {
    const max = this.s.limits.maxTasks;
    return max === undefined ? Infinity : Math.max(0, max - this.s.used.tasks - this.tasksHeld);
  }

  /** Raises `maxTasks` by what this run's parent granted it (a child's share grew). */
  raiseTasks(more: number): void {
    if (this.s.limits.maxTasks !== undefined) this.s.limits.maxTasks += more;
  }

  /** The child team of `id` ended: its hold is released and its tree's attempts charged (all the hold when unknown). */
  settleTasks(id: string, used: number | null): void {
    this.s.used.tasks += this.childTasks.settle(id, used);
  }

  /** Agent model calls admitted so far (`budget.maxTurns`). */
  get turns(): number {
    return this.s.used.turns ?? 0;
  }

  /** Whether `count` more model calls would pass `budget.maxTurns`. */
  overTurns(count: number): boolean {
    const max = this.s.limits.maxTurns;
    return max !== undefined && this.turns + count > max;
  }

  /** Counts `count` model calls admitted: each is counted once, as it is let through, whatever it then spends. */
  admitTurns(count: number): void {
    this.s.used.turns = this.turns + count;
  }

  /** Raises the token and dollar limits by what this run's parent granted it: a child's carve grew. */
  raise(grant: Reservation): void {
    const { limits } = this.s;
    if (limits.maxTokens !== undefined) limits.maxTokens += grant.tokens;
    if (limits.maxUsd !== undefined) limits.maxUsd = sumUsd(limits.maxUsd, grant.usd);
  }

  /** Gives back an extension the run granted and the shared ledger then refused. */
  release(extension: Reservation): void {
    const { reserved } = this.s;
    reserved.tokens = Math.max(0, reserved.tokens - extension.tokens);
    reserved.usd = Math.max(0, sumUsd(reserved.usd, -extension.usd));
  }

  /**
   * Releases an attempt's reservation and charges what it reported, truthfully, even past a limit.
   * Usage with tokens but no price while `maxUsd` is set cannot be trusted to fit: it fails closed.
   */
  settle(reservation: Reservation, usage: ReportedUsage | null | undefined): ChargeResult {
    const { used, reserved, limits } = this.s;
    reserved.tokens = Math.max(0, reserved.tokens - reservation.tokens);
    reserved.usd = Math.max(0, sumUsd(reserved.usd, -reservation.usd));
    this.s.inFlight = Math.max(0, this.s.inFlight - 1);
    const tokens = usageTokens(usage);
    const usd = usage?.costUsd ?? 0;
    used.tokens += tokens;
    used.usd = sumUsd(used.usd, usd);
    if (limits.maxUsd !== undefined && isUnpriced(usage)) return { ok: false, reason: 'unpriced-usage' };
    return { ok: true, tokens, usd };
  }

  /**
   * Settles an attempt whose outcome was lost (its lease expired): what it used is unknown, so
   * it is charged at least its reservation, and the budget says its usage is unknown.
   */
  settleUnknown(reservation: Reservation): { tokens: number; usd: number } {
    const charged = this.settleLost(reservation, reservation);
    this.s.usageUnknown = true;
    return charged;
  }

  /**
   * Settles a lost attempt whose spend has a bound (team/lost-usage.ts): its reservation is released and the bound
   * charged in its place. The usage stays an upper bound of what was spent, so the limits still hold.
   */
  settleLost(reservation: Reservation, bound: Reservation): { tokens: number; usd: number } {
    const { used, reserved } = this.s;
    reserved.tokens = Math.max(0, reserved.tokens - reservation.tokens);
    reserved.usd = Math.max(0, sumUsd(reserved.usd, -reservation.usd));
    this.s.inFlight = Math.max(0, this.s.inFlight - 1);
    used.tokens += bound.tokens;
    used.usd = sumUsd(used.usd, bound.usd);
    return { tokens: bound.tokens, usd: bound.usd };
  }

  /**
   * An attempt said part of what it spent cannot be known (a model call cut before its usage came): it reported
   * its reservation as a bound of that part, charged by `settle`, and the budget says its usage is unknown.
   */
  markUnknown(): void {
    this.s.usageUnknown = true;
  }

  /** Whether a token or dollar limit is set: then usage that cannot be known stops the run. */
  get limitsSpend(): boolean {
    return this.s.limits.maxTokens !== undefined || this.s.limits.maxUsd !== undefined;
  }

  /** Undoes the reservation of an attempt that never started: it is not counted as an execution. */
  cancel(reservation: Reservation): void {
    const { used, reserved } = this.s;
    used.tasks = Math.max(0, used.tasks - 1);
    reserved.tokens = Math.max(0, reserved.tokens - reservation.tokens);
    reserved.usd = Math.max(0, sumUsd(reserved.usd, -reservation.usd));
    this.s.inFlight = Math.max(0, this.s.inFlight - 1);
  }

  /** The limits `next` would loosen (raise), as `maxUsd 5 -> 10`; empty when it only tightens or adds limits. */
  loosenings(next: TightenedLimits): string[] {
    const { limits } = this.s;
    return TIGHTENED_LIMITS.flatMap((name) => {
      const was = limits[name];
      const now = next[name];
      return was !== undefined && now !== undefined && now > was ? [`${name} ${was} -> ${now}`] : [];
    });
  }

  /**
   * Lowers limits while the run runs (`tightenBudget`). Returns the reason the run must stop now: a new limit that
   * leaves nothing for another attempt (at or below what is used, or the wall time already past).
   */
  tighten(next: TightenedLimits, wallMs: number): BudgetReason | null {
    const { limits, used } = this.s;
    for (const name of TIGHTENED_LIMITS) if (next[name] !== undefined) limits[name] = next[name];
    if (limits.maxWallMs !== undefined && wallMs >= limits.maxWallMs) return 'max-wall-ms';
    if (limits.maxTasks !== undefined && used.tasks >= limits.maxTasks) return 'max-tasks';
    if (limits.maxTokens !== undefined && used.tokens >= limits.maxTokens) return 'max-tokens';
    if (limits.maxUsd !== undefined && used.usd >= limits.maxUsd - USD_STEP / 2) return 'max-usd';
    return null;
  }

  stop(reason: BudgetReason): boolean {
    if (this.s.stopped) return false;
    this.s.stopped = true;
    this.s.reason = reason;
    return true;
  }

  view(now: number, startedAt: number): BudgetView {
    const { limits, used, reserved, stopped, reason } = this.s;
    const wallMs = Math.max(0, now - startedAt);
    const left = (max: number | undefined, spent: number) => (max === undefined ? null : Math.max(0, max - spent));
    return {
      limits,
      used: { tasks: used.tasks, tokens: used.tokens, usd: roundUsd(used.usd), wallMs, turns: this.turns },
      reserved: { tokens: reserved.tokens, usd: roundUsd(reserved.usd) },
      remaining: {
        tasks: left(limits.maxTasks, used.tasks + this.tasksHeld),
        tokens: left(limits.maxTokens, used.tokens + reserved.tokens),
        usd: limits.maxUsd === undefined ? null : roundUsd(Math.max(0, limits.maxUsd - used.usd - reserved.usd)),
        wallMs: left(limits.maxWallMs, wallMs),
        turns: left(limits.maxTurns, this.turns),
      },
      stopped,
      reason,
      usageUnknown: this.s.usageUnknown ?? false,
    };
  }

  snapshot(): BudgetSnapshot {
    const snapshot = structuredCloneish(this.s);
    const held = this.childTasks.holds;
    // Absent until a child team held a share (older snapshots stay as they were).
    if (snapshot.heldTasks !== undefined || Object.keys(held).length) snapshot.heldTasks = held;
    return snapshot;
  }
}

const roundUsd = (usd: number) => Math.round(usd * 1e6) / 1e6;

function structuredCloneish<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
