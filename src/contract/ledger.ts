/**
 * The shared budget ledger (the `budgetLedger` workflow) as the contract states it: its status and
 * what each of its updates answers. Request shapes are their zod schemas' (src/plan/requests/ledger.ts);
 * src/ledger/rules.ts must satisfy the rest.
 */
import type { LedgerLimits } from '../plan/requests/ledger';
import type { RunEvent } from './events';

export type {
  AbortAllRequest,
  AcquireRequest,
  ConfigureRequest,
  ExtendRequest,
  LedgerLimits,
  RegisterRequest,
  RenewRequest,
  RenewSlotsRequest,
  ResolveRequest,
  SettleRequest,
  UnregisterRequest,
} from '../plan/requests/ledger';

/**
 * Why a ledger refuses an attempt. `max-concurrent` always passes, and so does `recovery-required` (an attempt's
 * usage is unknown until an operator resolves it) and `scope-busy` (another attempt holds an overlapping scope until
 * it settles or its slot expires); the others are final once spent (`unpriced-usage`: usage without
 * a price was charged while `maxUsd` is set, so the dollars spent are unknown).
 */
export type LedgerLimitReason =
  'max-concurrent' | 'max-tokens' | 'max-usd' | 'unpriced-usage' | 'recovery-required' | 'scope-busy';

/** What stopped a ledger for the rest of its window. */
export type LedgerExhaustion = 'max-tokens' | 'max-usd' | 'unpriced-usage';

/** Attempts whose outcome, and usage, were lost: no run starts an attempt on the ledger until they are resolved. */
export interface LedgerRecovery {
  since: number;
  count: number;
  /** The first lost attempts' ids (at most 20) and the runs they belonged to (at most 20). */
  attempts: string[];
  runs: string[];
  /** What the lost attempts held: charged in full by `resolve --release`. */
  reservation: { tokens: number; usd: number };
}

/** How an operator resolved the last recovery: recorded usage, or the reservations released as the charge. */
export interface LedgerResolution {
  actor: string;
  at: number;
  count: number;
  how: 'usage' | 'release';
  charged: { tokens: number; usd: number };
}

/** One attempt holding a slot, as the ledger's `status` shows it. */
export interface LedgerSlotView {
  attemptId: string;
  workflowId: string;
  reservation: { tokens: number; usd: number };
  leaseMs: number;
  acquiredAt: number;
  expiresAt: number;
  expiresInMs: number;
  /** The scopes the slot holds, and the task and fencing token of its attempt (absent: none given). */
  scope?: string[];
  task?: string;
  fencingToken?: number;
  /** Work outside a team run (`teamrun/ledger`): settled lost by the ledger if it expires unsettled. */
  outside?: true;
}

/** A scope held on the ledger: by which attempt (its run, task and fencing token), since when, until when at most. */
export interface LedgerHeldScope {
  scope: string[];
  attemptId: string;
  workflowId: string;
  task: string | null;
  fencingToken: number | null;
  since: number;
  /** When the slot expires unless its attempt renews it (and then the scope is free). */
  expiresAt: number;
}

/** The ledger's `status` query (and `configure` update) answer. */
export interface LedgerStatus {
  id: string;
  /** `recovery_required` while lost attempts wait for `teamrun ledger resolve`; `exhausted` once a limit is spent. */
  state: 'open' | 'exhausted' | 'recovery_required';
  limits: LedgerLimits;
  /** Who may force a loosening, resolve and abort-all; null: any actor (a ledger created without operators). */
  operators: string[] | null;
  createdAt: number;
  window: { ms: number; startedAt: number; resetsAt: number } | null;
  inFlight: number;
  /** `turns`: agent model calls granted; `spawnedTasks`: tasks the runs that left added (window's, as the rest). */
  used: { tokens: number; usd: number; attempts: number; turns: number; spawnedTasks: number };
  /** What registered runs hold of `maxSpawnedTasks` (each its share, until it unregisters). */
  spawnsHeld: number;
  reserved: { tokens: number; usd: number };
  /** What is left of each limit; null where none is set. */
  remaining: {
    concurrent: number | null;
    tokens: number | null;
    usd: number | null;
    turns: number | null;
    spawnedTasks: number | null;
  };
  exhausted: { reason: LedgerExhaustion; at: number } | null;
  recovery: LedgerRecovery | null;
  lastResolution: LedgerResolution | null;
  slots: LedgerSlotView[];
  /** The scopes held by attempts in flight, oldest first (one entry per slot that holds any). */
  scopes: LedgerHeldScope[];
  /** `spawns`: its share of `maxSpawnedTasks`; `firstRunId`: its first execution's run id (where given). */
  runs: Array<{ workflowId: string; name: string | null; registeredAt: number; spawns?: number; firstRunId?: string }>;
  counters: { acquired: number; settled: number; duplicateSettles: number; expired: number };
  lastAbort: { reason: string; actor: string; at: number; runs: string[] } | null;
  /** The newest 50 events of the ledger's own log. */
  recentEvents: RunEvent[];
}

/** `register`: `exhausted` names the hard limit already spent, if one is; `tree` what the run works within. */
export interface LedgerRegisterVerdict {
  ok: true;
  idempotent?: true;
  exhausted: string | null;
  tree: LedgerTreeGrant;
  /** The answer to the first block asked with the registration (`block`), as an acquire's. */
  block?: AcquireVerdict;
}

/**
 * What a run on the ledger works within (src/ledger/tree.ts), as its registration answers it: `spawns` the share of
 * `maxSpawnedTasks` it holds (the tasks it may add in all), `maxDepth` and `maxWallMs` the ledger's, `turns` whether it
 * asks the ledger before each agent model call. Null (false): the ledger sets no such limit.
 */
export interface LedgerTreeGrant {
  spawns: number | null;
  maxDepth: number | null;
  maxWallMs: number | null;
  turns: boolean;
}

/** `renewSlots`: how many of the attempts named still held a slot, each now one lease longer. */
export interface RenewSlotsVerdict {
  ok: true;
  renewed: number;
}

export interface LedgerUnregisterVerdict {
  ok: true;
  idempotent?: true;
  /** The ledger's totals once the run left (absent from a ledger of an earlier version). */
  ledger?: LedgerTotals;
}

/** A ledger's totals as they stood, without its slots, runs or events: what a run's result keeps of it. */
export type LedgerTotals = Pick<
  LedgerStatus,
  'id' | 'state' | 'limits' | 'inFlight' | 'used' | 'reserved' | 'remaining' | 'exhausted'
>;

export type AcquireVerdict =
  | {
      ok: true;
      idempotent?: true;
      expiresAt: number;
      /** A block's (`slots` asked): how many slots it holds, and what it reserves for them together. */
      block?: { slots: number; reservation: { tokens: number; usd: number } };
    }
  | {
      ok: false;
      /** `settled`: the attempt was already settled (given up) and may not take a slot any more. */
      reason: LedgerLimitReason | 'settled';
      /** True when waiting can help (slots or reservations will be released); false when spent. */
      retryable: boolean;
      message: string;
    };

/**
 * `extend`: what the attempt's slot holds now, or why the ledger refuses to grow it (`no-slot`: the attempt holds
 * none, being settled, expired or unknown). A refusal is final: the run takes its own grant back and stops the attempt.
 */
export type LedgerExtendVerdict =
  | { ok: true; idempotent?: true; reservation: { tokens: number; usd: number } }
  | { ok: false; reason: LedgerExhaustion | 'recovery-required' | 'no-slot' | 'max-turns'; message: string };

/** What settling an attempt did; the `settle` update answers it without `abort`. */
export interface SettleVerdict {
  ok: true;
  duplicate: boolean;
  charged: { tokens: number; usd: number };
  /** The hard limit this charge crossed, if it did (`unpriced-usage`: a charge without a price while maxUsd is set). */
  crossed: LedgerExhaustion | null;
  /** Workflow ids of the runs to abort because of that crossing. */
  abort: string[];
}

/** `abortAll`: the runs the ledger aborted. */
export interface LedgerAbortAllVerdict {
  ok: true;
  runs: string[];
}

/** `resolve`: how many lost attempts it settled and what it charged. */
export interface LedgerResolveVerdict {
  ok: true;
  resolution: LedgerResolution;
}
