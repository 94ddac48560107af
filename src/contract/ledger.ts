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
  LedgerLimits,
  RegisterRequest,
  RenewRequest,
  SettleRequest,
  UnregisterRequest,
} from '../plan/requests/ledger';

/** A limit a ledger refuses on. `max-concurrent` always passes; the others are final once spent. */
export type LedgerLimitReason = 'max-concurrent' | 'max-tokens' | 'max-usd';

/** One attempt holding a slot, as the ledger's `status` shows it. */
export interface LedgerSlotView {
  attemptId: string;
  workflowId: string;
  reservation: { tokens: number; usd: number };
  leaseMs: number;
  acquiredAt: number;
  expiresAt: number;
  expiresInMs: number;
}

/** The ledger's `status` query (and `configure` update) answer. */
export interface LedgerStatus {
  id: string;
  limits: LedgerLimits;
  createdAt: number;
  window: { ms: number; startedAt: number; resetsAt: number } | null;
  inFlight: number;
  used: { tokens: number; usd: number; attempts: number };
  reserved: { tokens: number; usd: number };
  /** What is left of each limit; null where none is set. */
  remaining: { concurrent: number | null; tokens: number | null; usd: number | null };
  exhausted: { reason: 'max-tokens' | 'max-usd'; at: number } | null;
  slots: LedgerSlotView[];
  runs: Array<{ workflowId: string; name: string | null; registeredAt: number }>;
  counters: { acquired: number; settled: number; duplicateSettles: number; expired: number };
  lastAbort: { reason: string; actor: string; at: number; runs: string[] } | null;
  /** The newest 50 events of the ledger's own log. */
  recentEvents: RunEvent[];
}

/** `register`: `exhausted` names the hard limit already spent, if one is. */
export interface LedgerRegisterVerdict {
  ok: true;
  idempotent?: true;
  exhausted: string | null;
}

export interface LedgerUnregisterVerdict {
  ok: true;
  idempotent?: true;
}

export type AcquireVerdict =
  | { ok: true; idempotent?: true; expiresAt: number }
  | {
      ok: false;
      /** `settled`: the attempt was already settled (given up) and may not take a slot any more. */
      reason: LedgerLimitReason | 'settled';
      /** True when waiting can help (slots or reservations will be released); false when spent. */
      retryable: boolean;
      message: string;
    };

/** What settling an attempt did; the `settle` update answers it without `abort`. */
export interface SettleVerdict {
  ok: true;
  duplicate: boolean;
  charged: { tokens: number; usd: number };
  /** The hard limit this charge crossed, if it did. */
  crossed: 'max-tokens' | 'max-usd' | null;
  /** Workflow ids of the runs to abort because of that crossing. */
  abort: string[];
}

/** `abortAll`: the runs the ledger aborted. */
export interface LedgerAbortAllVerdict {
  ok: true;
  runs: string[];
}
