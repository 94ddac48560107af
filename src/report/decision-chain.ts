/**
 * `teamrun adjudications --verify`: the run's decision chain recomputed from its history. Each
 * applied `adjudicate` update is in history twice: its request (the accepted event) and the
 * verdict with the link the run gave it (the completed event); a `bindCase` before it names the
 * case its link took. The link's digest is recomputed from the request and must be the recorded
 * one, following the decision before it (src/team/case-chain.ts). Reads a history as the SDK
 * gives it (bytes) or as a file holds it (`temporal workflow show --output json`: base64).
 */
import type { AdjudicateRequest, AdjudicateVerdict, AdjudicationRecord, BindCaseVerdict } from '../contract';
import {
  recordFacts,
  requestFacts,
  verifyChain,
  type ChainHead,
  type ChainStep,
  type ChainVerdict,
} from '../team/case-chain';

interface PayloadLike {
  metadata?: Record<string, unknown> | null;
  data?: unknown;
}
type Payloads = { payloads?: PayloadLike[] | null } | null | undefined;

/** The events of a history, the SDK's or a file's, as far as this reader looks at them. */
export interface ChainEvent {
  eventId?: unknown;
  workflowExecutionUpdateAcceptedEventAttributes?: {
    acceptedRequest?: { input?: { name?: string | null; args?: Payloads } | null } | null;
  } | null;
  workflowExecutionUpdateCompletedEventAttributes?: {
    acceptedEventId?: unknown;
    outcome?: { success?: Payloads } | null;
  } | null;
  workflowExecutionCompletedEventAttributes?: { result?: Payloads } | null;
}

const text = (value: unknown): string => {
  if (typeof value === 'string') return Buffer.from(value, 'base64').toString('utf8');
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
  return '';
};

/** A JSON payload's value; undefined for one that is not plain JSON (an encrypted history not decoded). */
export function payloadValue(payloads: Payloads): unknown {
  const payload = payloads?.payloads?.[0];
  if (!payload || text(payload.metadata?.encoding) !== 'json/plain') return undefined;
  try {
    return JSON.parse(text(payload.data)) as unknown;
  } catch {
    return undefined;
  }
}

/** What a history says of its decisions: the chained ones, in order, and the result's record if it closed. */
export interface ChainHistory {
  steps: ChainStep[];
  /** Updates whose payloads could not be read (encrypted and not decoded). */
  unreadable: number;
  result: { adjudications: AdjudicationRecord[]; decisionChain?: ChainHead } | null;
}

/** Reads the decisions of one run's histories (oldest first: continue-as-new hands the head on). */
export function chainHistory(histories: Array<{ events?: ChainEvent[] | null }>): ChainHistory {
  const steps: ChainStep[] = [];
  const cases = new Map<string, string>();
  let unreadable = 0;
  let result: ChainHistory['result'] = null;
  for (const history of histories) {
    const accepted = new Map<string, { name: string; request: unknown }>();
    for (const event of history.events ?? []) {
      const a = event.workflowExecutionUpdateAcceptedEventAttributes;
      if (a) {
        const name = a.acceptedRequest?.input?.name ?? '';
        if (name !== 'adjudicate' && name !== 'bindCase') continue;
        const request = payloadValue(a.acceptedRequest?.input?.args);
        if (request === undefined) unreadable += 1;
        else accepted.set(String(event.eventId), { name, request });
        continue;
      }
      const c = event.workflowExecutionUpdateCompletedEventAttributes;
      const update = c ? accepted.get(String(c.acceptedEventId)) : undefined;
      if (c && update) {
        const verdict = payloadValue(c.outcome?.success) as (AdjudicateVerdict & BindCaseVerdict) | undefined;
        if (!verdict?.ok || verdict.idempotent) continue;
        if (update.name === 'bindCase') {
          // The case as asked (the verdict only echoes it): an edit to the request shows in the next link.
          const bind = update.request as { key?: unknown; caseId?: unknown };
          if (typeof bind.key === 'string' && typeof bind.caseId === 'string') cases.set(bind.key, bind.caseId);
        } else if (verdict.chain) {
          const request = update.request as AdjudicateRequest;
          const caseId = request.caseId ?? cases.get(request.key) ?? null;
          cases.delete(request.key);
          steps.push({ link: verdict.chain, decisionId: request.decisionId, facts: requestFacts(request, caseId) });
        }
        continue;
      }
      const closed = event.workflowExecutionCompletedEventAttributes;
      if (closed) result = (payloadValue(closed.result) as ChainHistory['result']) ?? null;
    }
  }
  return { steps, unreadable, result };
}

/** Decisions the run made itself, which no request carries: an approval's timeout, an abort's rejection. */
const RUN_MADE = /^(approval-timeout|abort):/;

export interface ChainReport extends ChainVerdict {
  /** Decisions recomputed from their request in history. */
  fromHistory: number;
  /** The run's own decisions recomputed from its record (the query's or the result's). */
  fromRecord: number;
  unreadable: number;
}

/**
 * Verifies the chain of a run: the steps its history gives, the run's own decisions from `records`
 * (the live query's or the closed result's) where history has none, and the head the run holds.
 */
export function verifyRunChain(
  history: ChainHistory,
  live?: { records: AdjudicationRecord[]; head?: ChainHead },
): ChainReport {
  const records = live?.records ?? history.result?.adjudications ?? [];
  const head = live ? live.head : history.result?.decisionChain;
  const bySeq = new Map<number, ChainStep>();
  for (const step of history.steps) if (!bySeq.has(step.link.seq)) bySeq.set(step.link.seq, step);
  let fromRecord = 0;
  for (const record of records) {
    const link = record.decision?.chain;
    if (!link || bySeq.has(link.seq) || !RUN_MADE.test(record.decision!.decisionId)) continue;
    bySeq.set(link.seq, { link, decisionId: record.decision!.decisionId, facts: recordFacts(record) });
    fromRecord += 1;
  }
  const steps = [...bySeq.values()].sort((x, y) => x.link.seq - y.link.seq);
  // A history that shows the decisions in another order than their seq: the order of the links is what is checked.
  return {
    ...verifyChain(steps, head),
    fromHistory: history.steps.length,
    fromRecord,
    unreadable: history.unreadable,
  };
}
