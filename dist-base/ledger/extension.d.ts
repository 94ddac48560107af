/**
 * Extensions of a running attempt's slot: its run granted the attempt more (a live reservation, issue 26), and the
 * ledger must allow it too, or the run takes its grant back and stops the attempt. Pure functions over the ledger's
 * snapshot, like admission.ts: the check is the `extend` update's validator too, so a refusal leaves no history.
 */
import type { LedgerExtendVerdict } from '../contract';
import type { ExtendRequest } from '../plan/requests/ledger';
import { type LedgerSlot, type LedgerSnapshot } from './state';
type Refusal = Extract<LedgerExtendVerdict, {
    ok: false;
}>;
/**
 * Why the ledger refuses to grow the slot at `now`; null when it fits (or this extension grew it already). What is
 * used, every live slot's reservation and the ask together must stay within each limit; a spent or recovering
 * ledger grants nothing.
 */
export declare function extensionRefusal(s: LedgerSnapshot, slots: LedgerSlot[], request: ExtendRequest, now: number): Refusal | null;
/** Grows the slot, and what the ledger holds, by the extension the caller checked fits; false if it grew it already. */
export declare function growSlot(s: LedgerSnapshot, slot: LedgerSlot, request: ExtendRequest): boolean;
export {};
