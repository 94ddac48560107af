/**
 * Keeps the ledger slots of a worker's running attempts alive: one `renewSlots` update per ledger and period, naming
 * every attempt of this worker that holds a slot there, with the worker's proof. An attempt whose worker dies stops
 * being named, and the ledger frees its slot when its lease runs out. The ledger takes renewals with a proof only:
 * a `renew` signal is anyone's to send (src/ledger/workflow.ts).
 */
import type { Client } from '@temporalio/client';
import { MAX_RENEWED_SLOTS } from '../plan/requests/ledger';
import type { LedgerLease } from './activity-interface';
import { updateLedger } from './handle';
import * as lm from './messages';
import { provenRequest, type ProveLedgerCall } from './doors';

/** How soon after an attempt starts its slot is first renewed: attempts starting together share the update. */
const FIRST_RENEWAL_MS = 250;

type Send = (ledgerId: string, attemptIds: string[]) => Promise<unknown>;
type Log = (message: string, fields: Record<string, unknown>) => void;

interface Held {
  /** The attempts holding a slot on the ledger, with how often each asks to be renewed. */
  attempts: Map<string, number>;
  /** How many running attempts renew each slot: a run's block (blocks.ts) is renewed by every attempt it holds. */
  holders: Map<string, number>;
  timer: ReturnType<typeof setTimeout> | null;
  /** When the next renewal is due (the timer's), null with none set. */
  due: number | null;
  sending: boolean;
}

/** A worker's renewals of its attempts' slots, one update per ledger at a time. */
export class LedgerRenewals {
  private readonly ledgers = new Map<string, Held>();

  constructor(
    private readonly send: Send,
    private readonly warn: Log = () => {},
  ) {}

  /** Renews the attempt's slot every `renewEveryMs` (the first soon) until the returned function is called. */
  hold(lease: LedgerLease): () => void {
    let held = this.ledgers.get(lease.ledgerId);
    if (!held) {
      held = { attempts: new Map(), holders: new Map(), timer: null, due: null, sending: false };
      this.ledgers.set(lease.ledgerId, held);
    }
    const { attemptId } = lease;
    held.attempts.set(attemptId, Math.min(lease.renewEveryMs, held.attempts.get(attemptId) ?? Infinity));
    held.holders.set(attemptId, (held.holders.get(attemptId) ?? 0) + 1);
    this.schedule(lease.ledgerId, held, FIRST_RENEWAL_MS);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const holders = (held.holders.get(attemptId) ?? 1) - 1;
      if (holders > 0) return void held.holders.set(attemptId, holders);
      held.holders.delete(attemptId);
      held.attempts.delete(attemptId);
      if (held.attempts.size) return;
      if (held.timer) clearTimeout(held.timer);
      this.ledgers.delete(lease.ledgerId);
    };
  }

  /** Attempts this worker renews now, on every ledger. */
  get holding(): number {
    let n = 0;
    for (const held of this.ledgers.values()) n += held.attempts.size;
    return n;
  }

  private schedule(ledgerId: string, held: Held, inMs: number): void {
    const at = Date.now() + inMs;
    if (held.due !== null && held.due <= at) return;
    if (held.timer) clearTimeout(held.timer);
    held.due = at;
    held.timer = setTimeout(() => void this.renew(ledgerId, held), inMs);
    held.timer.unref?.();
  }

  private async renew(ledgerId: string, held: Held): Promise<void> {
    held.timer = null;
    held.due = null;
    if (!held.attempts.size || this.ledgers.get(ledgerId) !== held) return;
    const every = Math.min(...held.attempts.values());
    // One update in flight per ledger: a slow answer delays the next, never piles them up.
    if (!held.sending) {
      held.sending = true;
      const ids = [...held.attempts.keys()];
      try {
        for (let i = 0; i < ids.length; i += MAX_RENEWED_SLOTS) {
          await this.send(ledgerId, ids.slice(i, i + MAX_RENEWED_SLOTS));
        }
      } catch (err) {
        // A missed renewal is tolerated (a slot's lease outlives two periods); the next one may land.
        this.warn('ledger slot renewal failed', { ledgerId, attempts: ids.length, error: String(err) });
      } finally {
        held.sending = false;
      }
    }
    if (held.attempts.size && this.ledgers.get(ledgerId) === held) this.schedule(ledgerId, held, every);
  }
}

/** The worker's renewals, sent as `renewSlots` updates with its proofs through `client`. */
export function ledgerRenewals(client: Client, prove: ProveLedgerCall, warn?: Log): LedgerRenewals {
  return new LedgerRenewals(
    (ledgerId, attemptIds) =>
      updateLedger(
        client,
        ledgerId,
        lm.ledgerRenewSlotsUpdate,
        provenRequest(prove, ledgerId, 'renewSlots', { attemptIds }),
      ),
    warn,
  );
}
