/**
 * Live reservations: a running attempt asks for more than it was granted (`extendReservation`,
 * from its worker as usage comes or before it spends). The run grants what its budget allows, all
 * of the ask or nothing; the extension joins the attempt's reservation, so settlement releases it
 * with the rest and charges the usage instead, and continue-as-new carries it with the attempt.
 */
import type { ExtendReservationVerdict } from '../contract';
import { type ExtendReservationRequest } from '../plan/requests/budget';
import type { RunContext } from './context';
import type { Reservation } from './types';
/** Every check, for the update's validator: a refused extension never reaches history. Throws `TeamControlError`. */
export declare function validateExtend(run: RunContext, payload: unknown): ExtendReservationRequest;
/** Grants the extension; the answer is what the attempt holds now. */
export declare function extend(run: RunContext, payload: unknown, now: number): ExtendReservationVerdict;
/**
 * The shared ledger refused an extension the run had granted: the run gives it back, unless the
 * attempt settled meanwhile (its settlement released the whole reservation already).
 */
export declare function withdraw(run: RunContext, key: string, fencingToken: number, extension: Reservation): void;
