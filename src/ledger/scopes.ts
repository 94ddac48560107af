/**
 * Scopes across runs: an attempt's slot may hold its task's scopes, and while it lives no other slot may hold an
 * overlapping one, whichever run (or outside caller) asks. The scopes live and die with the slot: taken with the
 * attempt's admission (the `acquire` update, through the ledger's doors), released when it settles or when its lease
 * runs out without a renewal, so a dead attempt holds them at most one slot lease. A slot is the attempt's, named by
 * its fencing token (`<workflowId>/<task>/<token>`): a stale attempt's settle cannot free a newer attempt's scopes.
 * Pure; rules.ts calls it.
 */
import type { AcquireVerdict } from '../contract';
import type { AcquireRequest } from '../plan/requests/ledger';
import { scopesOverlap } from '../team/scheduling';
import type { LedgerSlot } from './state';

/** The slot an admitted `request` holds from `now`: its reservation, its lease, and its scopes if it names any. */
export function newSlot(request: AcquireRequest, now: number): LedgerSlot {
  const { attemptId, workflowId, reservation, leaseMs, scope, task, fencingToken, outside } = request;
  return {
    attemptId,
    workflowId,
    reservation: { ...reservation },
    leaseMs,
    acquiredAt: now,
    expiresAt: now + leaseMs,
    ...(scope ? { scope: [...scope] } : {}),
    ...(task !== undefined ? { task } : {}),
    ...(fencingToken !== undefined ? { fencingToken } : {}),
    ...(outside ? { outside } : {}),
  };
}

/** `scope-busy` (retryable: it frees when that attempt settles or expires) while a live slot holds an overlap. */
export function scopeRefusal(
  ledgerId: string,
  live: readonly LedgerSlot[],
  request: AcquireRequest,
): Extract<AcquireVerdict, { ok: false }> | null {
  const { scope, attemptId } = request;
  if (!scope) return null;
  const holder = live.find((slot) => slot.scope && slot.attemptId !== attemptId && scopesOverlap(scope, slot.scope));
  if (!holder?.scope) return null;
  const task = holder.task === undefined ? '' : ` task ${holder.task}`;
  const token = holder.fencingToken === undefined ? '' : ` (token ${holder.fencingToken})`;
  return {
    ok: false,
    reason: 'scope-busy',
    retryable: true,
    message:
      `ledger ${ledgerId}: scope ${shown(scope)} overlaps ${shown(holder.scope)}, held by run ${holder.workflowId}` +
      `${task}${token} since ${new Date(holder.acquiredAt).toISOString()}`,
  };
}

/** What the ledger's event log records when a slot with scopes is taken or freed. */
export function scopeEventFields(slot: LedgerSlot): Record<string, unknown> {
  return {
    attemptId: slot.attemptId,
    workflowId: slot.workflowId,
    ...(slot.task !== undefined ? { task: slot.task } : {}),
    ...(slot.fencingToken !== undefined ? { fencingToken: slot.fencingToken } : {}),
    scope: slot.scope,
  };
}

function shown(scope: readonly string[]): string {
  const first = scope.slice(0, 3).join(', ');
  return `[${first}${scope.length > 3 ? ` and ${scope.length - 3} more` : ''}]`;
}
