/**
 * The adjudication queue: one record per task that waits (or waited) for a human, and the
 * decision ids already applied, so a decision sent twice applies once. Owns `adjudications` and
 * `decisions` in the snapshot and their bounds. Which task goes here, and what a decision does
 * to it, is the run's (decisions.ts, settlement.ts).
 */
import type { TaskSpec } from '../plan/schema';
import type { AdjudicationRecord } from './types';
import type { TaskView } from './views';
/** Decision ids already applied (the newest RUN_LIMITS.decisionIds), with the task each decided; `seq` orders them. */
export type DecisionLog = Record<string, {
    ok: true;
    task: Pick<TaskView, 'key'> & Partial<TaskView>;
    seq?: number;
}>;
export declare class Adjudications {
    readonly records: AdjudicationRecord[];
    private readonly decisions;
    constructor(records: AdjudicationRecord[], decisions: DecisionLog);
    snapshotDecisions(): DecisionLog;
    /** Queues a record; its reason is left out when pending records already hold their bound of text. */
    add(record: AdjudicationRecord): void;
    /** The record of `key` still waiting for a decision, if there is one. */
    pending(key: string): AdjudicationRecord | undefined;
    latest(key: string): AdjudicationRecord | undefined;
    isDecided(decisionId: string): boolean;
    /** The task an earlier decision decided. */
    decidedKey(decisionId: string): string;
    /**
     * Remembers a decision id with the key it decided, nothing more: the task holds its output,
     * and a value must be held once. The newest RUN_LIMITS.decisionIds are kept.
     */
    remember(decisionId: string, key: string): void;
    /**
     * A decided record keeps who decided what and its evidence (counted in the run's bound on
     * outputs); its reason is clipped to what a reader of old decisions needs.
     */
    clipDecided(record: AdjudicationRecord): void;
    /**
     * Keeps the newest decided records (RUN_LIMITS.decidedAdjudications) and every pending one; returns the result bytes
     * let go.
     */
    forgetOldDecided(): number;
    /** The earliest time a pending approval times out, if any does. */
    approvalDeadline(specOf: (key: string) => TaskSpec | undefined): number | null;
    /** Characters of free text the pending records hold. */
    private pendingText;
}
