/**
 * A ledger's limits across its runs, as a plan's `budget.tree` bounds a tree (docs/budgets.md): `maxSpawnedTasks`
 * (each run holds a share from its registration, charged what it added when it leaves), `maxTurns` (each agent model
 * call asked for before it is made), `maxDepth` and `maxWallMs` (each run's own limits at most these). Pure functions
 * over the ledger's snapshot, as admission.ts and extension.ts are.
 */
import type { LedgerRegisterVerdict, LedgerTreeGrant } from '../contract';
import type { EventLog } from '../team/events';
import type { RegisterRequest, UnregisterRequest } from '../plan/requests/ledger';
import { heldSpawns, type LedgerSnapshot } from './state';

type RunRecord = LedgerSnapshot['runs'][number];

/**
 * Registers a run (`runs` by workflow id) and answers what it works within: its share of `maxSpawnedTasks` is taken
 * now, or kept from its first registration (a run registered before the limit was set takes one at its next).
 */
export function registerRun(
  s: LedgerSnapshot,
  runs: Map<string, RunRecord>,
  events: EventLog,
  request: RegisterRequest,
  now: number,
): { verdict: LedgerRegisterVerdict; changed: boolean } {
  const exhausted = s.exhausted?.reason ?? null;
  const earlier = runs.get(request.workflowId);
  // Another run under the same workflow id (the first ended without unregistering): the first is charged as forgotten.
  const replaced = !!earlier?.firstRunId && !!request.firstRunId && earlier.firstRunId !== request.firstRunId;
  if (replaced) unregisterRun(s, runs, events, { workflowId: request.workflowId }, now, 'run:replaced');
  const known = replaced ? undefined : earlier;
  const spawns = spawnShare(s, [...runs.values()], request);
  const tree = treeGrant(s, spawns);
  const share = spawns === null ? {} : { spawns };
  if (known) {
    const taken = spawns !== null && known.spawns === undefined;
    if (taken) {
      known.spawns = spawns;
      events.record('run:spawn-share', now, { workflowId: request.workflowId, spawns });
    }
    return { verdict: { ok: true, idempotent: true, exhausted, tree }, changed: taken };
  }
  runs.set(request.workflowId, {
    workflowId: request.workflowId,
    name: request.name ?? null,
    registeredAt: now,
    ...share,
    ...(request.firstRunId ? { firstRunId: request.firstRunId } : {}),
  });
  events.record('run:registered', now, { workflowId: request.workflowId, ...share });
  return { verdict: { ok: true, exhausted, tree }, changed: true };
}

/** Forgets a run, charging what it added (`spawnCharge`); false when it was not registered. */
export function unregisterRun(
  s: LedgerSnapshot,
  runs: Map<string, RunRecord>,
  events: EventLog,
  request: UnregisterRequest,
  now: number,
  why: string,
): boolean {
  const record = runs.get(request.workflowId);
  if (!record) return false;
  runs.delete(request.workflowId);
  const charged = spawnCharge(record, request.spawned);
  if (charged) s.used.spawnedTasks = (s.used.spawnedTasks ?? 0) + charged;
  const fields = record.spawns === undefined && !charged ? {} : { spawnedTasks: charged };
  events.record(why, now, { workflowId: request.workflowId, ...fields });
  return true;
}

/**
 * The share of `maxSpawnedTasks` a registering run holds: what it asks (its plan's own limit), at most what is left
 * after every task added and every share held. A run already holding one keeps it.
 */
export function spawnShare(s: LedgerSnapshot, runs: readonly RunRecord[], request: RegisterRequest): number | null {
  const max = s.limits.maxSpawnedTasks;
  if (max === undefined) return null;
  const held = runs.find((run) => run.workflowId === request.workflowId)?.spawns;
  if (held !== undefined) return held;
  const left = Math.max(0, max - (s.used.spawnedTasks ?? 0) - heldSpawns(runs));
  return Math.min(request.spawns ?? left, left);
}

/** What the run works within, as its registration answers it. */
export function treeGrant(s: LedgerSnapshot, spawns: number | null): LedgerTreeGrant {
  const { maxDepth, maxWallMs, maxTurns } = s.limits;
  return { spawns, maxDepth: maxDepth ?? null, maxWallMs: maxWallMs ?? null, turns: maxTurns !== undefined };
}

/**
 * What a leaving run is charged of `maxSpawnedTasks`: the tasks it says it added, or its whole share when it says
 * nothing (a run the ledger forgets, an older run's farewell). Never less than it added.
 */
export function spawnCharge(record: RunRecord, spawned: number | undefined): number {
  if (record.spawns === undefined) return spawned ?? 0;
  return spawned ?? record.spawns;
}

/** Why `turns` more agent model calls pass `maxTurns`; null when they fit (or the ledger sets no such limit). */
export function turnsRefusal(s: LedgerSnapshot, turns: number, newWindow = false): string | null {
  const max = s.limits.maxTurns;
  const used = newWindow ? 0 : (s.used.turns ?? 0);
  if (max === undefined || used + turns <= max) return null;
  return `maxTurns ${max} (${used} model calls granted across its runs, asked ${turns})`;
}
