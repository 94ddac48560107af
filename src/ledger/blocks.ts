/**
 * A run's blocks of its ledger's slots (`budget.ledgerBlocks`, issue 42): the attempts a run starts together ask the
 * ledger once, for a block of that many slots and what they hold together; an attempt that starts later joins an
 * open block with room, and the ledger hears of each attempt again only in the block's one settlement. A slot each
 * cost every attempt three ledger calls (acquire, extend, settle), each two of the ledger's workflow tasks.
 *
 * The ledger's limits hold as for slots: a block counts every slot it holds against `maxConcurrent` and reserves
 * what its attempts may spend; an attempt's extension comes from the block while it has room, else the block grows
 * (by as much for every slot it holds, so the next asks need no call). The block is a slot on the ledger, renewed by
 * every worker running one of its attempts; it takes new attempts only while the ledger's first answer says it is
 * held (its lease less one renewal period), so a block the ledger let expire admits nothing. A lost attempt is
 * settled at once as its own lost slot (the ledger requires recovery, its reservation held twice until the block
 * settles: fail closed). Workflow code: deterministic, no Node imports; the books are block-book.ts's.
 */
import { CancellationScope, log, proxyActivities, sleep, uuid4 } from '@temporalio/workflow';
import type { LedgerActivities, LedgerBlockAnswer } from './activity-interface';
import {
  addReservations,
  blockActivityId,
  blockSettlement,
  enterBlock,
  fitsIn,
  freeOf,
  growsAhead,
  hasRoom,
  leaveBlock,
  newBlockBook,
  nextGrowth,
  type BlockBook,
} from './block-book';
import type { AttemptOutcome, Reservation } from '../team/types';
import { MAX_BLOCK_SLOTS, type AcquireRequest, type SettleRequest } from '../plan/requests/ledger';
import { attemptUsage } from './run-ledger-api';
import { controlQueue } from '../workflows/stop-channel';

/** How long an emptied block that still takes attempts waits for one before it settles. */
const IDLE_MS = 1_000;

/** A block's books, and its growth in flight. */
interface Block extends BlockBook {
  growing: Promise<{ reason: string; message: string } | null> | null;
}

interface Waiter {
  leaseId: string;
  holds: Reservation;
  leaseMs: number;
  cancelled: boolean;
  resolve: (blockId: string | null) => void;
}

/**
 * An extension asked of the ledger for a slot, answered by `answerBy` (absent: within the ledger call's own bound):
 * null once granted, else the refusal's reason and message.
 */
export type AskLedgerExtend = (
  slotId: string,
  extension: Reservation,
  answerBy?: number,
  turns?: number,
) => Promise<{ reason: string; message: string } | null>;

/** A block's activities are named by its id's uuid (the id holds the run's workflow id, up to 1,000 characters). */

/** Sends a block's request some other way than its own acquire (with the run's registration): its answer, or null. */
export type SendBlock = (request: AcquireRequest | undefined) => Promise<LedgerBlockAnswer | null>;

export class RunBlocks {
  private readonly blocks = new Set<Block>();
  private readonly memberOf = new Map<string, Block>();
  private waiting: Waiter[] = [];
  private asking = false;
  /** Sends the next ask (`withNextAsk`): the run's registration, carrying its first block. */
  private nextAskBy: SendBlock | null = null;

  constructor(
    private readonly ledgerId: string,
    private readonly workflowId: string,
    /** Keeps a settlement in the run's list of calls in flight (drained before the run ends). */
    private readonly track: (settling: Promise<unknown>) => void,
    private readonly askExtend: AskLedgerExtend,
  ) {}

  /** The block of the attempt (`leaseId`) if it joined one. */
  blockOf(leaseId: string): string | null {
    return this.memberOf.get(leaseId)?.id ?? null;
  }

  /**
   * Joins the attempt to a block: one open with room, else a new one asked for with every attempt waiting now.
   * Resolves the block's id (the slot its worker renews), or null when the ledger gave no block: the attempt then
   * takes a slot of its own (and waits there, if it must). Rejects when the attempt is stopped while it waits.
   */
  async join(leaseId: string, holds: Reservation, leaseMs: number): Promise<string | null> {
    const open = this.openFor(holds, Date.now());
    if (open) return this.enter(open, leaseId, holds);
    const waiter: Waiter = { leaseId, holds, leaseMs, cancelled: false, resolve: () => {} };
    const joined = new Promise<string | null>((resolve) => (waiter.resolve = resolve));
    this.waiting.push(waiter);
    if (!this.asking) void this.ask();
    // Rejects when the attempt is stopped; handled here even once the attempt joined (the race no longer listens).
    const stopped = CancellationScope.current().cancelRequested.then(() => null);
    stopped.catch(() => undefined);
    try {
      return await Promise.race([joined, stopped]);
    } catch (err) {
      waiter.cancelled = true;
      this.waiting = this.waiting.filter((w) => w !== waiter);
      throw err;
    }
  }

  private openFor(holds: Reservation, now: number): Block | null {
    for (const block of this.blocks) if (hasRoom(block, holds, now)) return block;
    return null;
  }

  private enter(block: Block, leaseId: string, holds: Reservation): string {
    enterBlock(block, leaseId, holds);
    this.memberOf.set(leaseId, block);
    return block.id;
  }

  /**
   * Whether an ask is about to be sent: the attempts this activation launched wait for a block. `send` then sends it
   * (called once, with no request if every waiter was stopped meanwhile); false when none is, and `send` is not kept.
   */
  withNextAsk(send: SendBlock): boolean {
    if (!this.asking || this.nextAskBy) return false;
    this.nextAskBy = send;
    return true;
  }

  /** Asks the ledger for one block for the attempts waiting now (those of this activation join before it is sent). */
  private async ask(): Promise<void> {
    this.asking = true;
    await Promise.resolve();
    const asked = this.waiting.splice(0, MAX_BLOCK_SLOTS).filter((w) => !w.cancelled);
    const sendBy = this.nextAskBy;
    this.nextAskBy = null;
    if (sendBy && !asked.length) void sendBy(undefined);
    let block: Block | null = null;
    if (asked.length) {
      const id = `${this.workflowId}/block/${uuid4()}`;
      const leaseMs = Math.max(...asked.map((w) => w.leaseMs));
      const reservation = asked.reduce((sum, w) => addReservations(sum, w.holds), { tokens: 0, usd: 0 });
      const { ledgerAcquire } = proxyActivities<LedgerActivities>({
        ...controlQueue(),
        activityId: blockActivityId(id, 'ledger-acquire'),
        startToCloseTimeout: '30s',
        heartbeatTimeout: '5s',
        retry: { initialInterval: '200ms', backoffCoefficient: 1.5, maximumInterval: '2s', maximumAttempts: 5 },
        summary: `ledger ${this.ledgerId}: block of ${asked.length} slots`,
      });
      const request = { attemptId: id, workflowId: this.workflowId, reservation, leaseMs, slots: asked.length };
      // Not the first waiter's to cancel: every waiter's, and a granted block is settled even if none joins it.
      const answer = await CancellationScope.nonCancellable(() =>
        sendBy ? sendBy(request) : ledgerAcquire({ ledgerId: this.ledgerId, ...request, once: true }),
      ).catch(() => null);
      if (answer?.block) {
        block = { ...newBlockBook(id, answer.block, answer.expiresAt - leaseMs / 2), growing: null };
        this.blocks.add(block);
      }
    }
    for (const w of asked) {
      if (w.cancelled) continue;
      const room = block && hasRoom(block, w.holds, Date.now());
      // Refused, unreachable, or no room left: the attempt takes a slot of its own.
      w.resolve(room ? this.enter(block!, w.leaseId, w.holds) : null);
    }
    if (block && !block.members.size) this.settleBlock(block);
    this.asking = false;
    if (this.waiting.length) void this.ask();
  }

  /**
   * Grows what the attempt may spend by `extension` from its block: at once while the block has room, else the block
   * grows (or the extension alone, if the ledger cannot hold that); model calls (`turns`) are asked of the ledger
   * every time. A block that grew grows by twice as much the next time, and grows again in the background once half
   * of its last growth is taken, so attempts seldom wait for the ledger. Null once granted, else the refusal.
   */
  async extend(
    leaseId: string,
    extension: Reservation,
    answerBy?: number,
    turns?: number,
  ): Promise<{ reason: string; message: string } | null> {
    const block = this.memberOf.get(leaseId);
    if (!block) return { reason: 'ledger-no-slot', message: `attempt ${leaseId} is in no block` };
    const grant = (more: Reservation) => {
      const held = block.members.get(leaseId);
      if (held) block.members.set(leaseId, addReservations(held, extension));
      block.reserved = addReservations(block.reserved, more);
    };
    if (turns) {
      const refused = await this.askExtend(block.id, extension, answerBy, turns);
      if (!refused) grant(extension);
      return refused;
    }
    for (;;) {
      if (fitsIn(freeOf(block), extension)) {
        grant({ tokens: 0, usd: 0 });
        if (!block.growing && growsAhead(block)) void this.grow(block, extension, undefined, false);
        return null;
      }
      // Another's growth refused: this attempt asks for its own extension alone next.
      const mine = !block.growing;
      const refused = await (block.growing ?? this.grow(block, extension, answerBy, true));
      if (refused && mine) return refused;
    }
  }

  /** Grows the block by its next growth (`extension` per slot at first), or by `extension` alone (`exact`). */
  private grow(
    block: Block,
    extension: Reservation,
    answerBy: number | undefined,
    exact: boolean,
  ): Promise<{ reason: string; message: string } | null> {
    const growth = nextGrowth(block, extension);
    const growing = (async () => {
      const refused = await this.askExtend(block.id, growth, answerBy);
      if (!refused) {
        block.reserved = addReservations(block.reserved, growth);
        block.growth = growth;
        return null;
      }
      // Asked again, a doubled growth would be refused again: one call per extension from now on, not two. A ledger
      // that did not answer refused nothing: the block keeps growing as before.
      if (refused.reason !== 'ledger-unreachable') block.growthRefused = true;
      if (!exact || (growth.tokens <= extension.tokens && growth.usd <= extension.usd)) return refused;
      const alone = await this.askExtend(block.id, extension, answerBy);
      if (!alone) block.reserved = addReservations(block.reserved, extension);
      return alone;
    })();
    block.growing = growing;
    void growing.finally(() => {
      if (block.growing === growing) block.growing = null;
    });
    return growing;
  }

  /**
   * Takes the attempt's outcome into its block: false when it is in none. Its usage is charged with the block's; a lost
   * attempt whose spend nothing bounds is settled as lost at once; an emptied block settles when it takes no more.
   */
  settle(claim: { leaseId: string; activityId: string }, outcome: AttemptOutcome, bound: Reservation | null): boolean {
    const { leaseId } = claim;
    const block = this.memberOf.get(leaseId);
    if (!block) return false;
    this.memberOf.delete(leaseId);
    const lost = outcome.kind === 'lease-lost' && !bound;
    const held = leaveBlock(block, leaseId, attemptUsage(outcome, bound), lost);
    if (lost) {
      // Under its own lease id and activity id, as a slot's lost attempt: both bounded, unlike the block's id and it.
      const settled = { usage: null, attempts: 0, lost: { reservation: held, workflowId: this.workflowId } };
      this.send(leaseId, `${claim.activityId}:ledger-settle`, settled);
    }
    if (!block.members.size) void this.whenIdle(block);
    return true;
  }

  /** Settles every emptied block now and takes no attempt into any (before the run ends or continues as new). */
  close(): void {
    for (const block of this.blocks) {
      block.openUntil = 0;
      if (!block.members.size) this.settleBlock(block);
    }
  }

  private async whenIdle(block: Block): Promise<void> {
    if (Date.now() < block.openUntil) await CancellationScope.nonCancellable(() => sleep(IDLE_MS));
    if (!block.members.size) this.settleBlock(block);
  }

  private settleBlock(block: Block): void {
    if (block.settled) return;
    block.settled = true;
    this.blocks.delete(block);
    this.send(block.id, blockActivityId(block.id, 'ledger-settle'), blockSettlement(block));
  }

  private send(attemptId: string, activityId: string, settlement: Omit<SettleRequest, 'attemptId'>): void {
    const { ledgerSettle } = proxyActivities<LedgerActivities>({
      ...controlQueue(),
      activityId,
      startToCloseTimeout: '30s',
      heartbeatTimeout: '5s',
      retry: { initialInterval: '500ms', maximumInterval: '10s' },
      summary: `ledger ${this.ledgerId}: settle ${attemptId}`,
    });
    // Not cancellable: an aborted run still owes the ledger its usage.
    const request = { ledgerId: this.ledgerId, attemptId, ...settlement };
    this.track(
      CancellationScope.nonCancellable(() => ledgerSettle(request)).catch((err: unknown) =>
        log.error('ledger settlement failed', { ledgerId: this.ledgerId, attemptId, error: String(err) }),
      ),
    );
  }
}
