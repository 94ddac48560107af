/**
 * The adjudication queue: one record per task that waits (or waited) for a human, and the
 * decision ids already applied, so a decision sent twice applies once. Owns `adjudications` and
 * `decisions` in the snapshot and their bounds. Which task goes here, and what a decision does
 * to it, is the run's (decisions.ts, settlement.ts).
 */
import type { TaskSpec } from '../plan/schema';
import { jsonBytes } from '../plan/bytes';
import { approvalDeadline } from './approval';
import { RUN_LIMITS, clip } from './bounds';
import type { AdjudicationRecord } from './types';
import type { DecisionChainLink } from '../contract';
import { CHAIN_GENESIS, extendChain, type ChainHead, type DecisionFacts } from './case-chain';
import type { TaskView } from './views';

/** Decision ids already applied (the newest RUN_LIMITS.decisionIds), with the task each decided; `seq` orders them. */
export type DecisionLog = Record<string, { ok: true; task: Pick<TaskView, 'key'> & Partial<TaskView>; seq?: number }>;

export class Adjudications {
  readonly records: AdjudicationRecord[];
  private readonly decisions: DecisionLog;
  /** The decision chain's head (case-chain.ts); a snapshot without one starts at the genesis. */
  readonly chain: ChainHead;

  constructor(records: AdjudicationRecord[], decisions: DecisionLog, chain?: ChainHead) {
    this.records = records;
    this.chain = { ...(chain ?? { seq: 0, head: CHAIN_GENESIS }) };
    // No prototype: a decisionId such as "constructor" must not look like an earlier decision.
    this.decisions = Object.assign(Object.create(null) as DecisionLog, decisions);
  }

  snapshotDecisions(): DecisionLog {
    return this.decisions;
  }

  /** Links a decision onto the run's chain; answers its link. */
  link(facts: DecisionFacts): DecisionChainLink {
    return extendChain(this.chain, facts);
  }

  /** Queues a record; its reason is left out when pending records already hold their bound of text. */
  add(record: AdjudicationRecord): void {
    if (record.reason !== null && this.pendingText() + record.reason.length > RUN_LIMITS.pendingTextChars) {
      const bound = RUN_LIMITS.pendingTextChars;
      record.reason = `(reason left out: pending adjudications hold ${bound} chars of text already)`;
    }
    this.records.push(record);
  }

  /** The record of `key` still waiting for a decision, if there is one. */
  pending(key: string): AdjudicationRecord | undefined {
    const record = this.latest(key);
    return record?.decision ? undefined : record;
  }

  latest(key: string): AdjudicationRecord | undefined {
    for (let r = this.records.length - 1; r >= 0; r--) {
      if (this.records[r].key === key) return this.records[r];
    }
    return undefined;
  }

  isDecided(decisionId: string): boolean {
    return Object.hasOwn(this.decisions, decisionId);
  }

  /** The task an earlier decision decided. */
  decidedKey(decisionId: string): string {
    return this.decisions[decisionId].task.key;
  }

  /**
   * Remembers a decision id with the key it decided, nothing more: the task holds its output,
   * and a value must be held once. The newest RUN_LIMITS.decisionIds are kept.
   */
  remember(decisionId: string, key: string): void {
    const ids = Object.keys(this.decisions);
    const seq = ids.reduce((max, id) => Math.max(max, this.decisions[id].seq ?? 0), 0) + 1;
    this.decisions[decisionId] = { ok: true, task: { key }, seq };
    if (ids.length + 1 <= RUN_LIMITS.decisionIds) return;
    let oldest = decisionId;
    for (const id of ids) if ((this.decisions[id].seq ?? 0) < (this.decisions[oldest].seq ?? Infinity)) oldest = id;
    delete this.decisions[oldest];
  }

  /**
   * A decided record keeps who decided what and its evidence (counted in the run's bound on
   * outputs); its reason is clipped to what a reader of old decisions needs.
   */
  clipDecided(record: AdjudicationRecord): void {
    if (record.reason !== null) record.reason = clip(record.reason, RUN_LIMITS.decidedReasonChars);
  }

  /**
   * Keeps the newest decided records (RUN_LIMITS.decidedAdjudications) and every pending one; returns the result bytes
   * let go.
   */
  forgetOldDecided(): number {
    let decided = 0;
    let freed = 0;
    for (const r of this.records) if (r.decision) decided += 1;
    for (let r = 0; r < this.records.length && decided > RUN_LIMITS.decidedAdjudications;) {
      const record = this.records[r];
      if (!record.decision) {
        r += 1;
        continue;
      }
      freed += jsonBytes(record.result);
      this.records.splice(r, 1);
      decided -= 1;
    }
    return freed;
  }

  /** The earliest time a pending approval times out, if any does. */
  approvalDeadline(specOf: (key: string) => TaskSpec | undefined): number | null {
    let earliest: number | null = null;
    for (const record of this.records) {
      const spec = specOf(record.key);
      const at = spec === undefined ? null : approvalDeadline(spec, record);
      if (at !== null && (earliest === null || at < earliest)) earliest = at;
    }
    return earliest;
  }

  /** Characters of free text the pending records hold. */
  private pendingText(): number {
    let chars = 0;
    for (const r of this.records) {
      if (!r.decision)
        chars +=
          (r.reason?.length ?? 0) +
          (r.evidenceDigest?.length ?? 0) +
          (r.requestId?.length ?? 0) +
          (r.caseId?.length ?? 0) +
          (r.actor?.length ?? 0);
    }
    return chars;
  }
}
