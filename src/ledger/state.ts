/**
 * The shared ledger's state as continue-as-new carries it (its snapshot and slots), and the
 * `status` view built from it. Shapes and one pure view; the rules are rules.ts's.
 */
import type { LedgerExhaustion, LedgerHeldScope, LedgerRecovery, LedgerResolution, LedgerStatus } from '../contract';
import type { EventLogSnapshot } from '../team/events';
import type { LedgerLimits } from '../plan/requests/ledger';
import type { Reservation, RunEvent } from '../team/types';

/** One attempt holding a slot; it lives while renewed, so a dead run cannot hold it for ever. */
export interface LedgerSlot {
  attemptId: string;
  workflowId: string;
  reservation: Reservation;
  leaseMs: number;
  acquiredAt: number;
  expiresAt: number;
  /** The newest extensions that grew `reservation`, by id (absent in older snapshots: none). */
  extensions?: string[];
  /** The scopes the attempt holds with its slot (scopes.ts); absent: none. */
  scope?: string[];
  /** The run's task and the attempt's fencing token, for the list of held scopes (absent: not given). */
  task?: string;
  fencingToken?: number;
  /** Work outside a team run: expired unsettled, it is settled as lost (outside.ts). */
  outside?: true;
  /** A run's block (blocks.ts): the slots of this many of its attempts (absent: one attempt's). */
  slots?: number;
}

export interface LedgerSnapshot {
  id: string;
  limits: LedgerLimits;
  /** Who may force a loosening, resolve and abort-all (absent, and in older snapshots: any actor). */
  operators?: string[];
  createdAt: number;
  windowStartedAt: number;
  /** `turns` and `spawnedTasks` (src/ledger/tree.ts) are absent in older snapshots: 0. */
  used: { tokens: number; usd: number; attempts: number; turns?: number; spawnedTasks?: number };
  reserved: Reservation;
  slots: LedgerSlot[];
  /**
   * `spawns`: the share of `maxSpawnedTasks` the run holds while registered (absent: none); `firstRunId`: its first
   * execution's run id (absent: not given).
   */
  runs: Array<{ workflowId: string; name: string | null; registeredAt: number; spawns?: number; firstRunId?: string }>;
  /** Attempts already settled, oldest first (bounded): a second settle of one charges nothing. */
  settled: string[];
  /** Set when a charge crossed a hard limit; cleared when the window resets. */
  exhausted: { reason: LedgerExhaustion; at: number } | null;
  /** Lost attempts waiting for an operator (absent in older snapshots: none). */
  recovery?: LedgerRecovery | null;
  lastResolution?: LedgerResolution | null;
  counters: {
    acquired: number;
    settled: number;
    duplicateSettles: number;
    expired: number;
  };
  lastAbort: { reason: string; actor: string; at: number; runs: string[] } | null;
  events: EventLogSnapshot;
}

/** The `status` query: limits, what is used, reserved and left, the slots and runs, the newest events. */
export function ledgerStatus(
  s: LedgerSnapshot,
  slots: LedgerSlot[],
  runs: LedgerSnapshot['runs'],
  events: RunEvent[],
  now: number,
): LedgerStatus {
  const { limits, used, reserved } = s;
  const left = (max: number | undefined, spent: number) => (max === undefined ? null : Math.max(0, max - spent));
  const recovery = s.recovery ?? null;
  // What lost attempts held stays held until an operator resolves them.
  const lost = recovery?.reservation ?? { tokens: 0, usd: 0 };
  const turns = used.turns ?? 0;
  const spawnedTasks = used.spawnedTasks ?? 0;
  const spawnsHeld = heldSpawns(runs);
  return {
    id: s.id,
    state: recovery ? 'recovery_required' : s.exhausted ? 'exhausted' : 'open',
    limits,
    operators: s.operators ?? null,
    createdAt: s.createdAt,
    window:
      limits.windowMs === undefined
        ? null
        : { ms: limits.windowMs, startedAt: s.windowStartedAt, resetsAt: s.windowStartedAt + limits.windowMs },
    inFlight: slotsHeld(slots),
    used: { tokens: used.tokens, usd: round(used.usd), attempts: used.attempts, turns, spawnedTasks },
    spawnsHeld,
    reserved: { tokens: reserved.tokens, usd: round(reserved.usd) },
    remaining: {
      concurrent: left(limits.maxConcurrent, slotsHeld(slots)),
      tokens: left(limits.maxTokens, used.tokens + reserved.tokens + lost.tokens),
      usd: limits.maxUsd === undefined ? null : round(Math.max(0, limits.maxUsd - used.usd - reserved.usd - lost.usd)),
      turns: left(limits.maxTurns, turns),
      spawnedTasks: left(limits.maxSpawnedTasks, spawnedTasks + spawnsHeld),
    },
    exhausted: s.exhausted,
    recovery,
    lastResolution: s.lastResolution ?? null,
    slots: slots.map((slot) => ({ ...slot, expiresInMs: Math.max(0, slot.expiresAt - now) })),
    scopes: heldScopes(slots),
    runs,
    counters: { ...s.counters },
    lastAbort: s.lastAbort,
    recentEvents: events.slice(-50),
  };
}

/** How many attempts' slots these hold of `maxConcurrent`: a block counts every attempt it holds a slot for. */
export function slotsHeld(slots: readonly LedgerSlot[]): number {
  return slots.reduce((sum, slot) => sum + (slot.slots ?? 1), 0);
}

/** What these slots reserve together. */
export function heldReservation(slots: readonly LedgerSlot[]): Reservation {
  return slots.reduce(
    (sum, slot) => ({ tokens: sum.tokens + slot.reservation.tokens, usd: sum.usd + slot.reservation.usd }),
    { tokens: 0, usd: 0 },
  );
}

/** What the registered runs hold of `maxSpawnedTasks`, together. */
export function heldSpawns(runs: readonly LedgerSnapshot['runs'][number][]): number {
  return runs.reduce((sum, run) => sum + (run.spawns ?? 0), 0);
}

/** The scopes held now, oldest first: which attempt (run, task, token) holds each, since when, until when. */
export function heldScopes(slots: readonly LedgerSlot[]): LedgerHeldScope[] {
  return slots
    .filter((slot) => slot.scope)
    .sort((a, b) => a.acquiredAt - b.acquiredAt)
    .map((slot) => ({
      scope: [...slot.scope!],
      attemptId: slot.attemptId,
      workflowId: slot.workflowId,
      task: slot.task ?? null,
      fencingToken: slot.fencingToken ?? null,
      since: slot.acquiredAt,
      expiresAt: slot.expiresAt,
    }));
}

export const round = (usd: number): number => Math.round(usd * 1e6) / 1e6;
