/**
 * A batch of a worker's slot requests in one `batch` update (issue 42): the acquires, extensions and settlements its
 * attempts ask of one ledger at the same moment, answered item by item. A few updates in flight per worker and ledger
 * instead of one per attempt keeps a busy ledger inside the server's limit of updates in flight per workflow, and
 * one proof (one confirmation with the worker) covers the whole batch. Each item is decided exactly as its own
 * update would be (rules.ts). Workflow code: no Node imports.
 */
import { z } from 'zod';
import type { AcquireVerdict, LedgerExtendVerdict, SettleVerdict } from '../contract';
import { AcquireRequestSchema, ExtendRequestSchema, SettleRequestSchema } from '../plan/requests/ledger';
import type { Ledger } from './rules';

/** Items one batch carries at most; the worker also cuts a batch at `MAX_BATCH_BYTES` of JSON. */
export const MAX_BATCH_ITEMS = 256;
/** A batch's requests as JSON, at most (whatever their count): far below Temporal's 2 MB payload limit. */
export const MAX_BATCH_BYTES = 256 * 1024;

export const BatchRequestSchema = z
  .object({
    items: z
      .array(
        z.discriminatedUnion('call', [
          z.object({ call: z.literal('acquire'), request: AcquireRequestSchema }).strict(),
          z.object({ call: z.literal('extend'), request: ExtendRequestSchema }).strict(),
          z.object({ call: z.literal('settle'), request: SettleRequestSchema }).strict(),
        ]),
      )
      .min(1)
      .max(MAX_BATCH_ITEMS),
  })
  .strict();
export type BatchRequest = z.infer<typeof BatchRequestSchema>;
export type BatchItem = BatchRequest['items'][number];

/** Each item's answer, in the order asked: what its own update would have answered. */
export type BatchItemVerdict = AcquireVerdict | LedgerExtendVerdict | Omit<SettleVerdict, 'abort'>;
export interface BatchVerdict {
  items: BatchItemVerdict[];
}

/**
 * Every item's refusal when every item would be refused as the ledger stands (acquires that wait, extensions that do
 * not fit), so the validator refuses the whole batch and a waiting attempt's retries leave no history; null when
 * any item would apply (a settlement always does).
 */
export function batchRefusals(ledger: Ledger, request: BatchRequest, now: number): BatchItemVerdict[] | null {
  const refusals: BatchItemVerdict[] = [];
  for (const item of request.items) {
    const refusal =
      item.call === 'acquire'
        ? ledger.check(item.request, now)
        : item.call === 'extend'
          ? ledger.checkExtend(item.request, now)
          : null;
    if (!refusal) return null;
    refusals.push(refusal);
  }
  return refusals;
}

/** Applies the items in order; the runs a settlement's crossing aborts go to `cascade`. */
export function applyBatch(
  ledger: Ledger,
  request: BatchRequest,
  now: number,
  cascade: (runs: string[]) => void,
): BatchVerdict {
  const abort: string[] = [];
  const items = request.items.map((item): BatchItemVerdict => {
    if (item.call === 'acquire') return ledger.acquire(item.request, now);
    if (item.call === 'extend') return ledger.extend(item.request, now);
    const { abort: runs, ...verdict } = ledger.settle(item.request, now);
    abort.push(...runs);
    return verdict;
  });
  if (abort.length) cascade([...new Set(abort)]);
  return { items };
}
