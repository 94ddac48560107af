/**
 * Extensions of a running attempt's slot: its run granted the attempt more (a live reservation, issue 26), and the
 * ledger must allow it too, or the run takes its grant back and stops the attempt. Pure functions over the ledger's
 * snapshot, like admission.ts: the check is the `extend` update's validator too, so a refusal leaves no history.
 */
import type { LedgerExtendVerdict } from '../contract';
import type { ExtendRequest } from '../plan/requests/ledger';
import { USD_EPSILON } from './admission';
import { heldReservation, round, type LedgerSlot, type LedgerSnapshot } from './state';
import { turnsRefusal } from './tree';

/** Extension ids a slot remembers: a retry comes within seconds, long before this many more extensions. */
const REMEMBERED = 64;

type Refusal = Extract<LedgerExtendVerdict, { ok: false }>;

/**
 * Why the ledger refuses to grow the slot at `now`; null when it fits (or this extension grew it already). What is
 * used, every live slot's reservation and the ask together must stay within each limit; a spent or recovering
 * ledger grants nothing.
 */
export function extensionRefusal(
  s: LedgerSnapshot,
  slots: LedgerSlot[],
  request: ExtendRequest,
  now: number,
): Refusal | null {
  const live = slots.filter((slot) => slot.expiresAt > now);
  const slot = live.find((held) => held.attemptId === request.attemptId);
  const refuse = (reason: Refusal['reason'], why: string): Refusal => ({
    ok: false,
    reason,
    message: `ledger ${s.id}: cannot extend attempt ${request.attemptId}: ${why}`,
  });
  if (!slot) return refuse('no-slot', 'it holds no slot (settled, expired or never admitted)');
  if (slot.extensions?.includes(request.extensionId)) return null;
  const { limits } = s;
  const newWindow = limits.windowMs !== undefined && now >= s.windowStartedAt + limits.windowMs;
  const exhausted = newWindow ? null : s.exhausted;
  if (exhausted) return refuse(exhausted.reason, `${exhausted.reason} was crossed`);
  if (s.recovery) {
    return refuse(
      'recovery-required',
      `recovery required: ${s.recovery.count} lost attempt(s) have unknown usage; an operator runs ` +
        `\`teamrun ledger resolve ${s.id} --usage '{...}'\` or \`--release\``,
    );
  }
  const used = newWindow ? { tokens: 0, usd: 0 } : s.used;
  const held = heldReservation(live);
  const { tokens, usd } = request.extension;
  if (limits.maxTokens !== undefined && used.tokens + held.tokens + tokens > limits.maxTokens) {
    return refuse(
      'max-tokens',
      `maxTokens ${limits.maxTokens} (used ${used.tokens}, reserved ${held.tokens}, asked ${tokens})`,
    );
  }
  if (limits.maxUsd !== undefined && used.usd + held.usd + usd > limits.maxUsd + USD_EPSILON) {
    return refuse(
      'max-usd',
      `maxUsd ${limits.maxUsd} (used ${round(used.usd)}, reserved ${round(held.usd)}, asked ${round(usd)})`,
    );
  }
  const turns = request.turns ? turnsRefusal(s, request.turns, newWindow) : null;
  return turns ? refuse('max-turns', turns) : null;
}

/** Grows the slot, and what the ledger holds, by the extension the caller checked fits; false if it grew it already. */
export function growSlot(s: LedgerSnapshot, slot: LedgerSlot, request: ExtendRequest): boolean {
  if (slot.extensions?.includes(request.extensionId)) return false;
  const { tokens, usd } = request.extension;
  slot.reservation = { tokens: slot.reservation.tokens + tokens, usd: slot.reservation.usd + usd };
  s.reserved.tokens += tokens;
  s.reserved.usd += usd;
  // Model calls are counted as granted: each is made once asked for, and none is given back.
  if (request.turns) s.used.turns = (s.used.turns ?? 0) + request.turns;
  slot.extensions = [...(slot.extensions ?? []), request.extensionId].slice(-REMEMBERED);
  return true;
}
