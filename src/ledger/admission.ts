/**
 * Whether a ledger admits one more attempt: the check behind `acquire` (and its update validator, so a refused
 * acquire leaves no trace in the ledger's history). Pure; reads the ledger's snapshot as `expire(now)` would see
 * it: expired slots free, a new window fresh.
 */
import type { AcquireVerdict, LedgerExhaustion } from '../contract';
import type { AcquireRequest } from '../plan/requests/ledger';
import { scopeRefusal } from './scopes';
import { heldReservation, round, slotsHeld, type LedgerSlot, type LedgerSnapshot } from './state';
import type { Reservation } from '../team/types';

export const USD_EPSILON = 1e-9;

/**
 * What an acquire takes if admitted: one attempt's slot and its reservation, or for a block (`slots` asked) as many
 * slots as are free and as the tokens and dollars left hold (one at least), with the reservation cut in proportion.
 */
export function slotGrant(
  s: LedgerSnapshot,
  live: readonly LedgerSlot[],
  request: AcquireRequest,
  used: Reservation,
): { slots: number; reservation: Reservation } {
  const asked = request.slots ?? 1;
  const cut = (slots: number): Reservation =>
    slots === asked
      ? { ...request.reservation }
      : {
          tokens: Math.ceil((request.reservation.tokens * slots) / asked),
          usd: (request.reservation.usd * slots) / asked,
        };
  const { maxConcurrent, maxTokens, maxUsd } = s.limits;
  let slots = maxConcurrent === undefined ? asked : Math.max(1, Math.min(asked, maxConcurrent - slotsHeld(live)));
  const held = heldReservation(live);
  const fits = (r: Reservation) =>
    (maxTokens === undefined || used.tokens + held.tokens + r.tokens <= maxTokens) &&
    (maxUsd === undefined || used.usd + held.usd + r.usd <= maxUsd + USD_EPSILON);
  while (slots > 1 && !fits(cut(slots))) slots -= 1;
  return { slots, reservation: cut(slots) };
}

/** A block's part of an acquire's answer: its slots and what they reserve together (none for one attempt's slot). */
export const blockOf = (slot: LedgerSlot) =>
  slot.slots === undefined ? {} : { block: { slots: slot.slots, reservation: { ...slot.reservation } } };

/** Why `acquire` would refuse `request` at `now`; null when it fits. */
export function admissionRefusal(
  s: LedgerSnapshot,
  slots: LedgerSlot[],
  settled: ReadonlySet<string>,
  request: AcquireRequest,
  now: number,
): Extract<AcquireVerdict, { ok: false }> | null {
  const { limits } = s;
  const { attemptId } = request;
  const live = slots.filter((slot) => slot.expiresAt > now);
  const newWindow = limits.windowMs !== undefined && now >= s.windowStartedAt + limits.windowMs;
  const used = newWindow ? { tokens: 0, usd: 0 } : s.used;
  const { reservation } = slotGrant(s, live, request, used);
  if (live.some((slot) => slot.attemptId === attemptId)) return null;
  if (settled.has(attemptId)) {
    return { ok: false, reason: 'settled', retryable: false, message: `attempt ${attemptId} was already settled` };
  }
  const exhausted = newWindow ? null : s.exhausted;
  const held = heldReservation(live);
  if (exhausted) {
    return {
      ok: false,
      reason: exhausted.reason,
      retryable: false,
      message: `ledger ${s.id}: ${exhausted.reason} was crossed`,
    };
  }
  const recovery = s.recovery;
  if (recovery) {
    return {
      ok: false,
      reason: 'recovery-required',
      retryable: true,
      message:
        `ledger ${s.id}: recovery required: ${recovery.count} lost attempt(s) have unknown usage; ` +
        `an operator runs \`teamrun ledger resolve ${s.id} --usage '{...}'\` or \`--release\``,
    };
  }
  const busy = scopeRefusal(s.id, live, request);
  if (busy) return busy;
  const inUse = slotsHeld(live);
  if (limits.maxConcurrent !== undefined && inUse >= limits.maxConcurrent) {
    return {
      ok: false,
      reason: 'max-concurrent',
      retryable: true,
      message: `ledger ${s.id}: ${inUse} of ${limits.maxConcurrent} slots in use`,
    };
  }
  const fits = (
    reason: 'max-tokens' | 'max-usd',
    max: number | undefined,
    spent: number,
    reserved: number,
    asked: number,
    eps: number,
  ) => {
    if (max === undefined) return null;
    // Spent, or more than could ever fit: waiting cannot help.
    if (spent >= max - eps || spent + asked > max + eps) {
      // An ask larger than what is left (a run's fair share, say) is not shortened: the attempt may spend it all.
      const why = spent >= max - eps ? 'spent' : `left cannot hold the attempt's ${round(asked)}`;
      const message = `ledger ${s.id}: ${reason} ${max} ${why} (used ${round(spent)}, asked ${round(asked)})`;
      return { ok: false as const, reason, retryable: false, message };
    }
    if (spent + reserved + asked > max + eps) {
      const message = `ledger ${s.id}: ${reason} ${max} reserved by attempts in flight`;
      return { ok: false as const, reason, retryable: true, message };
    }
    return null;
  };
  return (
    fits('max-tokens', limits.maxTokens, used.tokens, held.tokens, reservation.tokens, 0) ??
    fits('max-usd', limits.maxUsd, used.usd, held.usd, reservation.usd, USD_EPSILON)
  );
}

/** The hard limit that what is used now crosses, unless the ledger is spent already (unpriced: dollars unknown). */
export function crossedLimit(s: LedgerSnapshot, unpriced: boolean): LedgerExhaustion | null {
  const { limits, used, exhausted } = s;
  if (exhausted) return null;
  if (limits.maxTokens !== undefined && used.tokens > limits.maxTokens) return 'max-tokens';
  if (limits.maxUsd !== undefined && used.usd > limits.maxUsd + USD_EPSILON) return 'max-usd';
  if (limits.maxUsd !== undefined && unpriced) return 'unpriced-usage';
  return null;
}
