/**
 * The worker's side of a ledger's `batch` update (batch.ts): the acquires, extensions and settlements this worker's
 * attempts ask of one ledger wait in a queue while BATCHES_IN_FLIGHT batches of them are with the ledger, and go
 * together in the next. Past 10 updates in flight on one workflow the server answers ResourceExhausted and the
 * client's backoff sets the pace (issue 42: 1,000 attempts across 10 runs). A ledger whose workflow has no `batch`
 * (an older version) is asked item by item, as before.
 */
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { MAX_BATCH_BYTES, MAX_BATCH_ITEMS, type BatchItem, type BatchItemVerdict, type BatchVerdict } from './batch';
import * as lm from './messages';

interface Waiting {
  item: BatchItem;
  resolve: (verdict: BatchItemVerdict) => void;
  reject: (err: unknown) => void;
}

/**
 * Batches of one worker in flight to one ledger at once. A batch takes the ledger two workflow tasks and a round trip
 * to confirm it with the worker (0.9 s on average, 2.1 s p95, on two cores at load 30): with one in flight, 100
 * attempts of 4 runs waited on 58 batches of 5 items in a row. Four keep two workers on one ledger within the
 * server's 10 updates in flight per workflow.
 */
export const BATCHES_IN_FLIGHT = 4;

/**
 * How long a batch may stay unanswered before its items fail (their activities ask again) and its place in flight is
 * given to the next: as long as the longest ledger activity's try (30 s). Without it, a few updates the server never
 * answers would hold every place for good and stop this worker's attempts on the ledger.
 */
export const BATCH_DEADLINE_MS = 30_000;

export interface BatchSender {
  /** Sends one batch (with its proof) to ledger `ledgerId`; `signal` aborts the call when its deadline passes. */
  batch(ledgerId: string, items: BatchItem[], signal: AbortSignal): Promise<BatchVerdict>;
  /** Sends one item as its own update: for a ledger without `batch`. */
  single(ledgerId: string, item: BatchItem): Promise<BatchItemVerdict>;
}

export class LedgerBatcher {
  private readonly queues = new Map<string, { waiting: Waiting[]; sending: number }>();
  /** Ledgers whose workflow answered that it has no `batch` update: asked item by item from then on. */
  private readonly unbatched = new Set<string>();

  constructor(
    private readonly sender: BatchSender,
    private readonly deadlineMs: number = BATCH_DEADLINE_MS,
  ) {}

  /** The ledger's answer to `item`, sent with whatever else this worker asks the same ledger meanwhile. */
  ask(ledgerId: string, item: BatchItem): Promise<BatchItemVerdict> {
    if (this.unbatched.has(ledgerId)) return this.sender.single(ledgerId, item);
    return new Promise((resolve, reject) => {
      let queue = this.queues.get(ledgerId);
      if (!queue) this.queues.set(ledgerId, (queue = { waiting: [], sending: 0 }));
      queue.waiting.push({ item, resolve, reject });
      this.pump(ledgerId);
    });
  }

  private pump(ledgerId: string): void {
    const queue = this.queues.get(ledgerId);
    if (!queue || queue.sending >= BATCHES_IN_FLIGHT) return;
    if (!queue.waiting.length) {
      if (!queue.sending) this.queues.delete(ledgerId);
      return;
    }
    const sent = nextBatch(queue.waiting);
    queue.sending += 1;
    withDeadline(this.deadlineMs, `ledger ${ledgerId} did not answer a batch of ${sent.length}`, (signal) =>
      this.sender.batch(
        ledgerId,
        sent.map((w) => w.item),
        signal,
      ),
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
        queue.sending -= 1;
        this.pump(ledgerId);
      });
  }
}

/** `send`'s answer, or a failure naming `what` once `ms` pass (the call is then aborted through its signal). */
function withDeadline<T>(ms: number, what: string, send: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const abort = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`${what} in ${ms} ms; its attempts ask again`));
      abort.abort();
    }, ms);
  });
  return Promise.race([send(abort.signal), late]).finally(() => clearTimeout(timer));
}

/** Takes the next batch off the queue: at most MAX_BATCH_ITEMS items and MAX_BATCH_BYTES of JSON, one at least. */
function nextBatch(waiting: Waiting[]): Waiting[] {
  let bytes = 0;
  let count = 0;
  while (count < waiting.length && count < MAX_BATCH_ITEMS) {
    bytes += JSON.stringify(waiting[count].item).length;
    if (count > 0 && bytes > MAX_BATCH_BYTES) break;
    count += 1;
  }
  return waiting.splice(0, count);
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
