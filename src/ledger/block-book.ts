/**
 * The books of a run's block of ledger slots (blocks.ts is its workflow side): what the ledger holds for it, what its
 * attempts hold and took, when it takes attempts, how much it grows by and what its settlement charges. Pure and
 * clock-injected, as rules.ts is to the ledger's workflow.
 */
import type { Usage } from '../contract';
import { isUnpriced, usageTokens } from '../team/budget';
import type { Reservation } from '../team/types';

export interface BlockBook {
  id: string;
  slots: number;
  /** What the ledger holds for the block. */
  reserved: Reservation;
  /** What settled attempts took of it: their usage, or what a lost one held. */
  consumed: Reservation;
  /** The usage its settlement charges (a lost attempt is settled on its own), and its tokens without a price. */
  charge: Reservation;
  unpriced: number;
  /** Attempts it held in all, counted as the ledger's attempts when it settles. */
  attempts: number;
  /** Its running attempts, by lease id, with what each holds (grant and extensions). */
  members: Map<string, Reservation>;
  /** It takes no attempt from this time on (the ledger holds it at least until then, less a renewal's margin). */
  openUntil: number;
  /** What it grew by last (none yet: zero). */
  growth: Reservation;
  /** The ledger refused it a growth: from then on it grows by each extension alone, and never ahead. */
  growthRefused: boolean;
  settled: boolean;
}

const NONE: Reservation = { tokens: 0, usd: 0 };

/** The activity id of a block's own ledger call: its uuid (the end of its id), whatever the run's id's length. */
export const blockActivityId = (blockId: string, call: 'ledger-acquire' | 'ledger-settle'): string =>
  `block-${blockId.slice(-36)}:${call}`;

/** A block's acquire, by its activity id (`teamrun status` names the attempts that wait for it). */
export const BLOCK_ACQUIRE_ID = /^block-[0-9a-f-]{36}:ledger-acquire$/;

export const addReservations = (a: Reservation, b: Reservation): Reservation => ({
  tokens: a.tokens + b.tokens,
  usd: a.usd + b.usd,
});

export const fitsIn = (free: Reservation, ask: Reservation): boolean =>
  ask.tokens <= free.tokens && ask.usd <= free.usd + 1e-9;

/** The books of a block the ledger granted: `slots` and `reservation` as it answered, open until `openUntil`. */
export function newBlockBook(id: string, granted: { slots: number; reservation: Reservation }, openUntil: number) {
  const book: BlockBook = {
    id,
    slots: granted.slots,
    reserved: { ...granted.reservation },
    consumed: { ...NONE },
    charge: { ...NONE },
    unpriced: 0,
    attempts: 0,
    members: new Map(),
    openUntil,
    growth: { ...NONE },
    growthRefused: false,
    settled: false,
  };
  return book;
}

/** What the block holds that neither a running attempt holds nor a settled one took. */
export function freeOf(book: BlockBook): Reservation {
  let held = book.consumed;
  for (const each of book.members.values()) held = addReservations(held, each);
  return { tokens: book.reserved.tokens - held.tokens, usd: book.reserved.usd - held.usd };
}

/** Whether an attempt holding `holds` may join the block at `now`: open, a slot free, its grant free. */
export function hasRoom(book: BlockBook, holds: Reservation, now: number): boolean {
  return !book.settled && book.openUntil > now && book.members.size < book.slots && fitsIn(freeOf(book), holds);
}

export function enterBlock(book: BlockBook, leaseId: string, holds: Reservation): void {
  book.members.set(leaseId, { ...holds });
  book.attempts += 1;
}

/**
 * Takes an attempt out of the block, with what it reported (`usage`), or as lost with its spend unknown (`lost`:
 * what it held counts as taken, and its settlement is its own). Answers what it held.
 */
export function leaveBlock(book: BlockBook, leaseId: string, usage: Usage | null, lost: boolean): Reservation {
  const held = book.members.get(leaseId) ?? { ...NONE };
  book.members.delete(leaseId);
  if (lost) {
    book.consumed = addReservations(book.consumed, held);
    return held;
  }
  const spent = { tokens: usageTokens(usage), usd: usage?.costUsd ?? 0 };
  book.consumed = addReservations(book.consumed, spent);
  book.charge = addReservations(book.charge, spent);
  // Tokens without a price stay so in the block's usage: a ledger with `maxUsd` cannot count them either.
  if (isUnpriced(usage)) book.unpriced += usage?.unpricedTokens || spent.tokens;
  return held;
}

/** The block's next growth: `extension` for each of its slots the first time, twice its last growth after that. */
export function nextGrowth(book: BlockBook, extension: Reservation): Reservation {
  if (book.growthRefused) return { ...extension };
  if (book.growth.tokens || book.growth.usd) return { tokens: book.growth.tokens * 2, usd: book.growth.usd * 2 };
  return { tokens: extension.tokens * book.slots, usd: extension.usd * book.slots };
}

/**
 * Whether the block should grow before an attempt needs it: half its last growth is taken, of tokens or of dollars
 * (whichever it grew by). Not once the ledger refused it a growth: near its limits, each extension asks for itself.
 */
export function growsAhead(book: BlockBook): boolean {
  if (book.growthRefused) return false;
  const free = freeOf(book);
  const low = (left: number, grew: number) => grew > 0 && left < grew / 2;
  return low(free.tokens, book.growth.tokens) || low(free.usd, book.growth.usd);
}

/** What the block's one settlement charges: its attempts' usage together, and how many attempts it held. */
export function blockSettlement(book: BlockBook): { usage: Usage; attempts: number } {
  const { tokens, usd } = book.charge;
  const usage = {
    inputTokens: tokens,
    costUsd: usd,
    ...(book.unpriced ? { unpricedTokens: book.unpriced } : {}),
    model: `(block of ${book.attempts} attempts)`,
  };
  return { usage, attempts: book.attempts };
}
