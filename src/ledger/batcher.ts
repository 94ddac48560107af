/**
 * The worker's side of a ledger's `batch` update (batch.ts): the acquires, extensions and settlements this worker's
 * attempts ask of one ledger wait in a queue while one batch of them is with the ledger, and go together in the next.
 * One update in flight per worker and ledger: past 10 in flight on one workflow the server answers ResourceExhausted
 * and the client's backoff sets the pace (issue 42: 1,000 attempts across 10 runs). A ledger whose workflow has no
 * `batch` (an older version) is asked item by item, as before.
 */
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { MAX_BATCH_ITEMS, type BatchItem, type BatchItemVerdict, type BatchVerdict } from './batch';
import * as lm from './messages';

interface Waiting {
  item: BatchItem;
  resolve: (verdict: BatchItemVerdict) => void;
  reject: (err: unknown) => void;
}

export interface BatchSender {
  /** Sends one batch (with its proof) to ledger `ledgerId`. */
  batch(ledgerId: string, items: BatchItem[]): Promise<BatchVerdict>;
  /** Sends one item as its own update: for a ledger without `batch`. */
  single(ledgerId: string, item: BatchItem): Promise<BatchItemVerdict>;
}

export class LedgerBatcher {
  private readonly queues = new Map<string, { waiting: Waiting[]; sending: boolean }>();
  /** Ledgers whose workflow answered that it has no `batch` update: asked item by item from then on. */
  private readonly unbatched = new Set<string>();

  constructor(private readonly sender: BatchSender) {}

  /** The ledger's answer to `item`, sent with whatever else this worker asks the same ledger meanwhile. */
  ask(ledgerId: string, item: BatchItem): Promise<BatchItemVerdict> {
    if (this.unbatched.has(ledgerId)) return this.sender.single(ledgerId, item);
    return new Promise((resolve, reject) => {
      let queue = this.queues.get(ledgerId);
      if (!queue) this.queues.set(ledgerId, (queue = { waiting: [], sending: false }));
      queue.waiting.push({ item, resolve, reject });
      this.pump(ledgerId);
    });
  }

  private pump(ledgerId: string): void {
    const queue = this.queues.get(ledgerId);
    if (!queue || queue.sending) return;
    if (!queue.waiting.length) {
      this.queues.delete(ledgerId);
      return;
    }
    const sent = queue.waiting.splice(0, MAX_BATCH_ITEMS);
    queue.sending = true;
    this.sender
      .batch(
        ledgerId,
        sent.map((w) => w.item),
      )
      .then(
        (verdict) => sent.forEach((w, i) => answer(w, verdict.items[i])),
        (err: unknown) => {
          const refused = refusedItems(err);
          if (refused) return sent.forEach((w, i) => answer(w, refused[i]));
          if (!noBatchUpdate(err)) return sent.forEach((w) => w.reject(err));
          this.unbatched.add(ledgerId);
          for (const w of sent) this.sender.single(ledgerId, w.item).then(w.resolve, w.reject);
        },
      )
      .finally(() => {
        queue.sending = false;
        this.pump(ledgerId);
      });
  }
}

function answer(waiting: Waiting, verdict: BatchItemVerdict | undefined): void {
  if (verdict) waiting.resolve(verdict);
  else waiting.reject(new Error('the ledger answered a batch with fewer verdicts than items'));
}

/** The validator refused the whole batch: every item's own refusal, in order. */
function refusedItems(err: unknown): BatchItemVerdict[] | null {
  if (!(err instanceof WorkflowUpdateFailedError)) return null;
  const cause = err.cause;
  if (!(cause instanceof ApplicationFailure) || cause.type !== lm.LEDGER_REFUSED) return null;
  const details = cause.details?.[0] as { items?: BatchItemVerdict[] } | undefined;
  return Array.isArray(details?.items) ? details.items : null;
}

/** A ledger of an older version: its workflow has no handler for `batch`. */
function noBatchUpdate(err: unknown): boolean {
  if (!(err instanceof WorkflowUpdateFailedError)) return false;
  const why = err.cause instanceof Error ? err.cause.message : String(err.cause);
  return /no registered handler for update/i.test(why);
}
