/**
 * Live reservations: a running attempt asks for more than it was granted (`extendReservation`,
 * from its worker as usage comes or before it spends). The run grants what its budget allows, all
 * of the ask or nothing; the extension joins the attempt's reservation, so settlement releases it
 * with the rest and charges the usage instead, and continue-as-new carries it with the attempt.
 * The same ask admits an agent's next model calls (`turns`) against `budget.maxTurns` and
 * `budget.tree.maxTurns`: counted as admitted, refused `max-turns` past either.
 */
import type { ExtendReservationVerdict } from '../contract';
import { ExtendReservationSchema, type ExtendReservationRequest } from '../plan/requests/budget';
import { callerOf } from '../plan/requests/caller';
import { TeamControlError, parseControl } from '../plan/requests/control';
import { Budget } from './budget';
import type { RunContext } from './context';
import { checkTaskClaim } from './governance';
import { turnsRefusal } from './tree-limits';
import type { Attempt, Reservation } from './types';

const MESSAGE = 'extendReservation';

/**
 * Every check, for the update's validator: a refused extension never reaches history. Throws `TeamControlError`.
 */
export function validateExtend(run: RunContext, payload: unknown, mayAsk = false): ExtendReservationRequest {
  const { request } = check(run, payload);
  // Turns come from this run's own count and its children's holds: never from its parent, so checked here always.
  const turns = request.turns ? turnsRefusal(run, request.turns) : null;
  if (turns) throw turnsRefused(request, turns);
  // A child run asks its parent for what it lacks (team/child-budget.ts): the budget is checked once it answered.
  if (mayAsk) return request;
  const refused = new Budget(run.budget.snapshot()).extend(request);
  if (!refused.ok) throw refusal(request, refused.reason);
  return request;
}

/** Grants the extension; the answer is what the attempt holds now. */
export function extend(run: RunContext, payload: unknown, now: number): ExtendReservationVerdict {
  const { request, attempt } = check(run, payload);
  const turns = request.turns ? turnsRefusal(run, request.turns) : null;
  if (turns) throw turnsRefused(request, turns);
  const granted = run.budget.extend(request);
  if (!granted.ok) throw refusal(request, granted.reason);
  if (request.turns) run.budget.admitTurns(request.turns);
  const { tokens, usd } = granted.extension;
  attempt.reservation = { tokens: attempt.reservation.tokens + tokens, usd: sum(attempt.reservation.usd, usd) };
  run.events.record('budget:reservation-extended', now, {
    key: request.key,
    fencingToken: attempt.fencingToken,
    tokens,
    usd,
    reservation: attempt.reservation,
    ...(request.turns ? { turns: request.turns, usedTurns: run.budget.turns } : {}),
  });
  run.touch();
  return { ok: true, granted: { ...attempt.reservation } };
}

/**
 * The shared ledger refused an extension the run had granted: the run gives it back, unless the
 * attempt settled meanwhile (its settlement released the whole reservation already), and the model calls it asked.
 */
export function withdraw(run: RunContext, key: string, fencingToken: number, extension: Reservation, turns = 0): void {
  // The model calls the ledger refused are not made: the run's count takes them back too.
  if (turns) run.budget.admitTurns(-turns);
  const attempt = run.leases.get(key);
  if (!attempt || attempt.fencingToken !== fencingToken) return;
  attempt.reservation = {
    tokens: Math.max(0, attempt.reservation.tokens - extension.tokens),
    usd: Math.max(0, sum(attempt.reservation.usd, -extension.usd)),
  };
  run.budget.release(extension);
  run.touch();
}

function check(run: RunContext, payload: unknown): { request: ExtendReservationRequest; attempt: Attempt } {
  const caller = callerOf(payload, MESSAGE);
  const request = parseControl(ExtendReservationSchema, caller.request, MESSAGE);
  if (run.graph.indexOf(request.key) === undefined)
    throw new TeamControlError('not_found', `${MESSAGE}: no task "${request.key}"`);
  const attempt = run.leases.get(request.key);
  // A stopped attempt is on its way out: it spends nothing more.
  if (!attempt || attempt.fencingToken !== request.fencingToken || attempt.stop) {
    throw new TeamControlError(
      'stale_attempt',
      `${MESSAGE}: "${request.key}" has no live attempt with fencing token ${request.fencingToken}` +
        (attempt ? ` (the live one is ${attempt.fencingToken}${attempt.stop ? ', stopped' : ''})` : ''),
    );
  }
  checkTaskClaim(run.plan, caller, MESSAGE);
  return { request, attempt };
}

function refusal(request: ExtendReservationRequest, reason: string): TeamControlError {
  return new TeamControlError(
    reason,
    `${MESSAGE}: the run's budget cannot grant "${request.key}" ${request.tokens ?? 0} more tokens and ` +
      `$${request.usd ?? 0} (${reason})`,
  );
}

function turnsRefused(request: ExtendReservationRequest, why: string): TeamControlError {
  return new TeamControlError(
    'max-turns',
    `${MESSAGE}: the run refused "${request.key}" its next ${request.turns} model call(s): ${why} (max-turns)`,
  );
}

const sum = (a: number, b: number) => Math.round((a + b) * 1e9) / 1e9;
