import { CancellationScope, isCancellation, log, patched, proxyActivities, uuid4 } from '@temporalio/workflow';
import { LEDGER_FAILURE_TYPES, type LedgerActivities, type LedgerLease } from './activity-interface';
import type { LedgerTreeGrant, RunLedgerSummary } from '../contract';
import { ledgerBudgetReason } from './limits';
import { failureChain, refusalOf } from './run-failures';
import type { AttemptOutcome, Claim, Reservation } from '../team/types';
import type { LedgerAbortAnswer } from '../team/governance';
import { controlQueue } from '../workflows/stop-channel';
import { RunBlocks } from './blocks';
import { registration, sendRegistration } from './run-registration';
import {
  AttemptNotStarted,
  attemptUsage,
  LEDGER_EXTENSIONS,
  LEDGER_HOLDS_GRANT,
  LEDGER_SCOPES,
  type LedgerExtensions,
} from './run-ledger-api';

export {
  AttemptNotStarted,
  LEDGER_ABORT_CONFIRMED,
  LEDGER_REGISTER_BLOCK,
  LEDGER_TREE,
  type LedgerExtensions,
} from './run-ledger-api';

/** A run that finishes gives up unregistering after a while: the ledger forgets unreachable runs anyway. */
const farewell = () =>
  proxyActivities<LedgerActivities>({
    ...controlQueue(),
    startToCloseTimeout: '30s',
    heartbeatTimeout: '10s',
    scheduleToCloseTimeout: '5m',
    retry: { initialInterval: '1s', maximumInterval: '10s' },
  });

/** An extension's ledger call: each try 10 s, all of them this long at most (less when the attempt's wait ends). */
const EXTEND_WITHIN_MS = 30_000;
/** Less than this left of the attempt's wait: the ledger is not asked, the extension refused as unreachable. */
const MIN_EXTEND_MS = 1_000;

/** What the run records of its ledger: a wait for recovery (`ledger:waiting`, `ledger:admitted`) and its scopes. */
export type LedgerRunEvent = (claim: Claim, type: string, fields: Record<string, unknown>) => void;

/**
 * A team run's side of a shared ledger (`budget.ledger` in its plan): register at start, a slot
 * before each attempt, a settlement after it, unregister at the end. Each attempt is charged to
 * the ledger once (the run's own budget charges it once more, on its own account).
 */
export class RunLedger implements LedgerExtensions {
  /**
   * Attempts that asked for a slot and must be settled with the ledger (held or maybe held), by attempt id, with
   * what they asked the slot to hold: a lost attempt held that.
   */
  private readonly asked = new Map<string, Reservation>();
  private readonly settling = new Set<Promise<unknown>>();
  /**
   * What the ledger granted each attempt beyond its reservation, by attempt id: a lost attempt held that too. Workflow
   * memory is enough: a run on a ledger carries no attempt across its continue-as-new (each settles first).
   */
  private readonly extended = new Map<string, Reservation>();
  /** Attempts waiting for the ledger's recovery, by activity id: workflow memory, for the current details. */
  private readonly waiting = new Set<string>();
  /** Attempts whose scopes the ledger holds, by attempt id (workflow memory: none crosses a continue-as-new). */
  private readonly scoped = new Set<string>();
  /** Whether a question about an abort is with the ledger, and the abort that came meanwhile, to ask about next. */
  private askingAbort = false;
  private nextAbort: { since: number; apply: (answer: LedgerAbortAnswer) => void } | null = null;
  /** The run's blocks of slots (`budget.ledgerBlocks`); null: a slot each. */
  private readonly blocks: RunBlocks | null;
  /** The registration to come or in flight (`registersNext`): an attempt's own slot waits for it. */
  private pendingRegistration: { done: Promise<void>; end: () => void } | null = null;

  constructor(
    readonly id: string,
    private readonly workflowId: string,
    private readonly name: string,
    /**
     * Records an event of the attempt's in the run: `ledger:waiting` and `ledger:admitted` (a wait for the ledger's
     * recovery), `task:scope-acquired` and `task:scope-released` (its scopes held on the ledger).
     */
    private readonly onEvent: LedgerRunEvent = () => {},
    blocks = false,
  ) {
    this.blocks = blocks
      ? new RunBlocks(
          id,
          workflowId,
          (settling) => this.track(settling),
          (slotId, more, answerBy, turns) => this.askExtend(slotId, more, answerBy, turns),
        )
      : null;
  }

  private track(settling: Promise<unknown>): void {
    this.settling.add(settling);
    void settling.finally(() => this.settling.delete(settling));
  }

  /** The status line while attempts wait for an operator to resolve the ledger; null when none waits. */
  waitingLine(): string | null {
    if (!this.waiting.size) return null;
    return (
      `${this.waiting.size} attempt(s) wait: ledger ${this.id} requires recovery (a lost attempt's usage is ` +
      `unknown); an operator runs \`teamrun ledger resolve ${this.id} --usage '{...}'\` or \`--release\``
    );
  }

  /**
   * Registers the run (its first execution's run id), asking to hold `spawns` of the ledger's `maxSpawnedTasks`
   * (`tree` absent: a history recorded before); answers what the run works within (null: the ledger bounds nothing,
   * or an older worker answered).
   */
  async register(tree?: { spawns: number; firstRunId: string }): Promise<LedgerTreeGrant | null> {
    const request = { ledgerId: this.id, workflowId: this.workflowId, name: this.name, ...tree };
    const registered = sendRegistration(registration(), request, this.blocks);
    try {
      return (await registered).tree ?? null;
    } finally {
      this.pendingRegistration?.end();
      this.pendingRegistration = null;
    }
  }

  /** The run launches its first attempts before it registers (`register`, in the same activation): they wait for it. */
  registersNext(): void {
    let end = () => {};
    const done = new Promise<void>((resolve) => (end = resolve));
    this.pendingRegistration = { done, end };
  }

  /** What `runTask` needs to keep the slot (its block's, once admitted into one): a renewal every TTL. */
  lease(claim: Claim): LedgerLease {
    const attemptId = this.blocks?.blockOf(claim.leaseId) ?? claim.leaseId;
    return { ledgerId: this.id, attemptId, renewEveryMs: claim.ttlMs };
  }

  /**
   * Takes a slot for the attempt, then starts it. Call inside the attempt's cancellation scope:
   * an interrupt or abort while it waits for a slot stops the wait. Rejects with
   * `AttemptNotStarted` when the attempt never started.
   */
  async admit<T>(claim: Claim, start: () => Promise<T>, blockable = false): Promise<T> {
    const holds = this.holds(claim);
    // An attempt whose worker renews its slot and that holds no scope may join a block of the run's (blocks.ts).
    if (this.blocks && blockable && !claim.scope) {
      const joined = await this.blocks
        .join(claim.leaseId, holds, 2 * claim.ttlMs)
        .catch((err: unknown) => this.notStarted(err));
      if (joined) return CancellationScope.current().consideredCancelled ? this.notStarted(null) : start();
    }
    if (this.pendingRegistration) await this.pendingRegistration.done;
    this.asked.set(claim.leaseId, holds);
    try {
      // Its scopes are the slot's from here: the event says so, and the settlement's says when they were freed.
      if (await this.acquire(claim, holds)) {
        this.scoped.add(claim.leaseId);
        this.onEvent(claim, 'task:scope-acquired', { scope: claim.scope });
      }
    } catch (err) {
      const refused = refusalOf(err);
      if (refused) {
        this.asked.delete(claim.leaseId);
        throw new AttemptNotStarted(ledgerBudgetReason(refused.reason), refused.message);
      }
      return this.notStarted(err);
    }
    if (CancellationScope.current().consideredCancelled) return this.notStarted(null);
    return start();
  }

  /** The attempt was stopped while it waited for a slot (`err` its cancellation), or before it started (null). */
  private notStarted(err: unknown): never {
    if (err !== null && !isCancellation(err)) throw err;
    const why = err ? 'while waiting for' : 'before it started, holding';
    throw new AttemptNotStarted(null, `stopped ${why} a slot of ledger ${this.id}`);
  }

  /**
   * What the attempt's slot holds: what the attempt may spend without asking (its grant, 0 where nothing limits it),
   * so that the ledger's limits hold however the run sized it (an estimate, or a fair share of the run's own limit).
   * A grant the ledger can never hold is refused with the ledger's reason, as an estimate is: the run stops for it.
   */
  private holds(claim: Claim): Reservation {
    if (!patched(LEDGER_HOLDS_GRANT)) return claim.estimate;
    return { tokens: claim.grant.tokens ?? 0, usd: claim.grant.usd ?? 0 };
  }

  /**
   * Takes the slot, waiting (retries out of history) while slots or reservations are held. A ledger that requires
   * recovery refuses the first try, so the run can say why it waits; the second try then waits for an operator.
   * Resolves true when the slot holds the task's scopes.
   */
  private async acquire(claim: Claim, reservation: Reservation): Promise<boolean> {
    const tries = (activityId: string) =>
      proxyActivities<LedgerActivities>({
        ...controlQueue(),
        activityId,
        startToCloseTimeout: '30s',
        heartbeatTimeout: '5s',
        retry: {
          initialInterval: '200ms',
          backoffCoefficient: 1.5,
          maximumInterval: '2s',
          nonRetryableErrorTypes: [LEDGER_FAILURE_TYPES.refused],
        },
        summary: `ledger ${this.id}: slot for ${claim.activityId}`,
      }).ledgerAcquire;
    // The task's scopes are held with the slot, so no attempt of another run on the ledger overlaps them meanwhile.
    const scoped = claim.scope && patched(LEDGER_SCOPES);
    const request = {
      ledgerId: this.id,
      attemptId: claim.leaseId,
      workflowId: this.workflowId,
      reservation,
      leaseMs: 2 * claim.ttlMs,
      ...(scoped ? { scope: claim.scope, task: claim.key, fencingToken: claim.fencingToken } : {}),
    };
    try {
      await tries(`${claim.activityId}:ledger-acquire`)({ ...request, refuseRecovery: true });
      return !!scoped;
    } catch (err) {
      const refused = refusalOf(err);
      if (refused?.reason !== 'recovery-required') throw err;
      this.waiting.add(claim.activityId);
      this.onEvent(claim, 'ledger:waiting', { message: refused.message });
    }
    try {
      await tries(`${claim.activityId}:ledger-recovery`)(request);
      this.onEvent(claim, 'ledger:admitted', { message: `ledger ${this.id} resolved` });
      return !!scoped;
    } finally {
      this.waiting.delete(claim.activityId);
    }
  }

  /**
   * Grows the attempt's slot by an extension the run granted it: null once the ledger grants it too, else the
   * budget reason and why. It fails closed: a ledger that cannot be asked (unreachable, or of an older version
   * without `extend`) refuses.
   */
  async extend(
    attemptId: string,
    extension: Reservation,
    answerBy?: number,
    turns?: number,
  ): Promise<{ reason: string; message: string } | null> {
    if (!patched(LEDGER_EXTENSIONS)) return null;
    if (this.blocks?.blockOf(attemptId)) return this.blocks.extend(attemptId, extension, answerBy, turns);
    const refused = await this.askExtend(attemptId, extension, answerBy, turns);
    if (refused) return refused;
    const held = this.extended.get(attemptId) ?? { tokens: 0, usd: 0 };
    this.extended.set(attemptId, { tokens: held.tokens + extension.tokens, usd: held.usd + extension.usd });
    return null;
  }

  /** Asks the ledger to grow slot `attemptId` (an attempt's or a block's): null once it did, else why not. */
  private async askExtend(
    attemptId: string,
    extension: Reservation,
    answerBy?: number,
    turns?: number,
  ): Promise<{ reason: string; message: string } | null> {
    // Every try inside the time the attempt's gateway still waits for the run's verdict (`answerBy`), so the ledger's
    // refusal, or its silence, reaches the attempt as a budget refusal. The worker's ledger calls go in batches, one
    // in flight per worker (batcher.ts), so a busy ledger answers within a try.
    const left = answerBy === undefined ? EXTEND_WITHIN_MS : Math.min(EXTEND_WITHIN_MS, answerBy - Date.now());
    if (left < MIN_EXTEND_MS) {
      return {
        reason: 'ledger-unreachable',
        message: `ledger ${this.id} not asked: ${Math.max(0, left)} ms left of the attempt's wait for its verdict`,
      };
    }
    const { ledgerExtend } = proxyActivities<LedgerActivities>({
      ...controlQueue(),
      startToCloseTimeout: '10s',
      scheduleToCloseTimeout: left,
      heartbeatTimeout: '5s',
      retry: {
        initialInterval: '200ms',
        maximumInterval: '2s',
        nonRetryableErrorTypes: [LEDGER_FAILURE_TYPES.refused],
      },
      summary: `ledger ${this.id}: extend ${attemptId}`,
    });
    try {
      await ledgerExtend({
        ledgerId: this.id,
        attemptId,
        extensionId: uuid4(),
        extension,
        ...(turns ? { turns } : {}),
      });
    } catch (err) {
      const refused = refusalOf(err);
      if (refused)
        return { reason: ledgerBudgetReason(refused.reason) ?? `ledger-${refused.reason}`, message: refused.message };
      return { reason: 'ledger-unreachable', message: `ledger ${this.id} could not be asked: ${failureChain(err)}` };
    }
    return null;
  }

  /** Charges the attempt's usage to the ledger and frees its slot, in the background, retried until it lands. */
  settle(claim: Claim, outcome: AttemptOutcome, bound: Reservation | null = null): void {
    if (this.blocks?.settle(claim, outcome, bound)) return;
    const held = this.asked.get(claim.leaseId);
    if (!held) return;
    this.asked.delete(claim.leaseId);
    const usage = attemptUsage(outcome, bound);
    const more = this.extended.get(claim.leaseId) ?? { tokens: 0, usd: 0 };
    this.extended.delete(claim.leaseId);
    // A lost attempt's usage is unknown: the ledger holds what it reserved (extensions too) until an operator
    // resolves it.
    const reservation = { tokens: held.tokens + more.tokens, usd: held.usd + more.usd };
    const lost = outcome.kind === 'lease-lost' && !bound ? { lost: { reservation, workflowId: this.workflowId } } : {};
    const { ledgerSettle } = proxyActivities<LedgerActivities>({
      ...controlQueue(),
      activityId: `${claim.activityId}:ledger-settle`,
      startToCloseTimeout: '30s',
      heartbeatTimeout: '5s',
      retry: { initialInterval: '500ms', maximumInterval: '10s' },
      summary: `ledger ${this.id}: settle ${claim.activityId}`,
    });
    const scoped = this.scoped.delete(claim.leaseId);
    // Not cancellable: an aborted run still owes the ledger its usage.
    const settling = CancellationScope.nonCancellable(() =>
      ledgerSettle({ ledgerId: this.id, attemptId: claim.leaseId, usage, ...lost }),
    ).then(
      // The ledger freed the slot, and the scopes with it (a settlement that never lands frees them at its expiry).
      () => {
        if (scoped) this.onEvent(claim, 'task:scope-released', { scope: claim.scope, why: outcome.kind });
      },
      (err: unknown) =>
        log.error('ledger settlement failed', { ledgerId: this.id, attemptId: claim.leaseId, error: String(err) }),
    );
    this.track(settling);
  }

  /**
   * Asks the ledger whether it aborted this run (its last abort names the run, at or after `since`), then hands the
   * answer to `apply`: an abort naming the ledger as its actor is anyone's words until then. One question at a time:
   * of the aborts that come meanwhile only the latest is asked about, after it, so a flood of forged ones keeps one
   * question in flight, and the ledger's own, arriving among them, is still asked about. The handover waits for it.
   */
  confirmAbort(since: number, apply: (answer: LedgerAbortAnswer) => void): void {
    if (this.askingAbort) {
      this.nextAbort = { since, apply };
      return;
    }
    this.askingAbort = true;
    const { ledgerConfirmAbort } = proxyActivities<LedgerActivities>({
      ...controlQueue(),
      startToCloseTimeout: '20s',
      heartbeatTimeout: '10s',
      scheduleToCloseTimeout: '1m',
      retry: { initialInterval: '1s', maximumInterval: '5s' },
      summary: `ledger ${this.id}: did it abort this run?`,
    });
    const asked = ledgerConfirmAbort({ ledgerId: this.id, workflowId: this.workflowId, since })
      .catch((err: unknown) => ({
        confirmed: false,
        why: `ledger ${this.id} could not be asked: ${failureChain(err)}`,
      }))
      .then((answer) => {
        apply(answer);
        this.askingAbort = false;
        const next = this.nextAbort;
        this.nextAbort = null;
        if (next) this.confirmAbort(next.since, next.apply);
      });
    this.track(asked);
  }

  /** Waits for every settlement in flight (before the run closes or continues as new). */
  async drain(): Promise<void> {
    this.blocks?.close();
    while (this.settling.size) await Promise.all(this.settling);
  }

  /**
   * Unregisters, saying how many tasks the run added (`spawned`, charged in place of its share; absent: a history
   * recorded before); answers the ledger's status as it was then (null: not read, or a history recorded before).
   */
  async unregister(spawned?: number): Promise<RunLedgerSummary | null> {
    await this.drain();
    const farewellAnswer = await farewell()
      .ledgerUnregister({
        ledgerId: this.id,
        workflowId: this.workflowId,
        ...(spawned === undefined ? {} : { spawned }),
      })
      .catch((err: unknown) =>
        log.warn('could not unregister from the ledger', { ledgerId: this.id, error: String(err) }),
      );
    return (farewellAnswer && farewellAnswer.ledger) ?? null;
  }
}
