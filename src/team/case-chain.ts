/**
 * Adjudication cases and the decision chain. An adjudication may be bound to an outside case (a
 * ticket) once; every decision the run applies is chained to the one before it by SHA-256, so a
 * record of decisions edited after the fact no longer matches the digests the run gave out. The
 * run keeps the head (its snapshot carries it across continue-as-new); each decision's link is in
 * its record and in the `adjudicate` update's answer, which history keeps beside the request.
 * `verifyChain` recomputes the links from the decisions as recorded (docs/operating.md).
 * Pure: the workflow-safe sha256 of src/agent/sha256.ts, no Node built-ins.
 */
import type { AdjudicationRecord, DecisionChainLink } from '../contract';
import type { AdjudicateRequest, Decision } from '../plan/requests/control';
import { sha256, toHex } from '../agent/sha256';
import { RUN_LIMITS, clip } from './bounds';

/** The `prev` of a run's first decision. */
export const CHAIN_GENESIS = '0'.repeat(64);

/** Rule change: decisions are chained (runs recorded before it have no links). */
export const DECISION_CHAIN = 'teamrun-decision-chain';

/** What a decision's link covers: what was asked (as the request carried it) and the case bound at the time. */
export interface DecisionFacts {
  key: string;
  decisionId: string;
  decision: Decision;
  actor: string | null;
  reason: string | null;
  caseId: string | null;
  /** The request's `result`; undefined when it gave none. */
  result?: unknown;
}

/** A decided record's facts as the run keeps them (its reason clipped as the link took it). */
export function recordFacts(record: AdjudicationRecord): DecisionFacts | null {
  const { decision } = record;
  if (!decision) return null;
  const { decisionId, actor, reason } = decision;
  return { key: record.key, decisionId, decision: decision.decision, actor, reason, caseId: record.caseId ?? null };
}

/** A request's facts as its decision's link takes them: its reason clipped as the record keeps it. */
export function requestFacts(request: AdjudicateRequest, caseId: string | null): DecisionFacts {
  const reason = request.reason === undefined ? null : clip(request.reason, RUN_LIMITS.decidedReasonChars);
  const { key, decisionId, decision } = request;
  return { key, decisionId, decision, actor: request.actor ?? null, reason, caseId, result: request.result };
}

/** The chain's state in the run: how many decisions were linked and the last link's digest. */
export interface ChainHead {
  seq: number;
  head: string;
}

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

/** The canonical text of a decision: a JSON array in a fixed order; the result is taken by its own digest. */
export function canonicalDecision(seq: number, facts: DecisionFacts): string {
  const result = facts.result === undefined ? null : toHex(sha256(utf8(JSON.stringify(facts.result))));
  return JSON.stringify([
    seq,
    facts.key,
    facts.decisionId,
    facts.decision,
    facts.actor,
    facts.reason,
    facts.caseId,
    result,
  ]);
}

/** The digest of decision `seq` following `prev`: SHA-256 of `prev`, a newline and its canonical text. */
export function linkDigest(prev: string, seq: number, facts: DecisionFacts): string {
  return toHex(sha256(utf8(`${prev}\n${canonicalDecision(seq, facts)}`)));
}

/** Links the next decision onto `chain` (which it moves on) and answers its link. */
export function extendChain(chain: ChainHead, facts: DecisionFacts): DecisionChainLink {
  const seq = chain.seq + 1;
  const link = { seq, prev: chain.head, digest: linkDigest(chain.head, seq, facts) };
  chain.seq = seq;
  chain.head = link.digest;
  return link;
}

/**
 * One decision as a verifier finds it: the link the run answered, and the facts recomputed from
 * the request (null for a decision the run made itself: an approval's timeout, an abort's
 * rejection, which no request in history carries).
 */
export interface ChainStep {
  link: DecisionChainLink;
  decisionId: string;
  facts: DecisionFacts | null;
}

export interface ChainBreak {
  seq: number;
  decisionId: string;
  /** What the recorded request gives (or the digest the chain had reached). */
  expected: string;
  /** What the run recorded. */
  found: string;
  why: string;
}

export interface ChainVerdict {
  ok: boolean;
  /** Decisions whose digest was recomputed from their request and matched. */
  verified: number;
  /** Decisions the run made itself, taken as recorded (their link still joins the chain). */
  unverifiable: number;
  head: string;
  seq: number;
  broken: ChainBreak | null;
}

/**
 * Walks the steps in order: each link must follow the head reached so far (its `prev`, its `seq`
 * the next one) and, where the request is known, its digest must be the one the request gives. A
 * gap in `seq` is decisions the run made itself and answered no request for: the next link's `prev`
 * is then taken as their head. `expectHead`, when given (the live run's own head), must be reached.
 */
export function verifyChain(steps: ChainStep[], expectHead?: ChainHead): ChainVerdict {
  const chain: ChainHead = { seq: 0, head: CHAIN_GENESIS };
  let verified = 0;
  let unverifiable = 0;
  const fail = (step: ChainStep, expected: string, found: string, why: string): ChainVerdict => ({
    ok: false,
    verified,
    unverifiable,
    ...chain,
    broken: { seq: step.link.seq, decisionId: step.decisionId, expected, found, why },
  });
  for (const step of steps) {
    const { link } = step;
    if (link.seq <= chain.seq) return fail(step, `seq ${chain.seq + 1}`, `seq ${link.seq}`, 'out of order');
    if (link.seq > chain.seq + 1) {
      // Decisions between were the run's own (no request in history): their head is what this link follows.
      unverifiable += link.seq - chain.seq - 1;
      chain.head = link.prev;
    } else if (link.prev !== chain.head) {
      return fail(step, chain.head, link.prev, 'does not follow the decision before it');
    }
    if (step.facts === null) {
      unverifiable += 1;
    } else {
      const expected = linkDigest(link.prev, link.seq, step.facts);
      if (expected !== link.digest) return fail(step, expected, link.digest, 'its request does not give its digest');
      verified += 1;
    }
    chain.seq = link.seq;
    chain.head = link.digest;
  }
  // Decisions after the last one found were the run's own: the head it holds cannot be recomputed then.
  if (expectHead && expectHead.seq > chain.seq) unverifiable += expectHead.seq - chain.seq;
  else if (expectHead && (expectHead.seq !== chain.seq || expectHead.head !== chain.head)) {
    return {
      ok: false,
      verified,
      unverifiable,
      ...chain,
      broken: {
        seq: chain.seq,
        decisionId: steps.at(-1)?.decisionId ?? '',
        expected: `${chain.seq}:${chain.head}`,
        found: `${expectHead.seq}:${expectHead.head}`,
        why: "the run's head is not where the recorded decisions lead",
      },
    };
  }
  return { ok: true, verified, unverifiable, ...chain, broken: null };
}
