/**
 * The one place Node-side code (client, CLI, report) reaches into the SDK's private parts
 * (`@temporalio/common/lib/internal-non-workflow`), for what its public API cannot do yet.
 * `test/unit/sdk-internals.test.ts` fails when the shape used here changes, and `@temporalio/*`
 * is pinned to a tested minor range in package.json.
 */
import type { Payload } from '@temporalio/common';
import type { History } from './proto';
/**
 * Replaces, in place, every payload list of a history (event inputs, results, details, failures'
 * payloads, memos, headers) by what `transform` returns for it; search attributes are left alone,
 * as Temporal keeps them plaintext to index them. The walk over every event type is generated
 * from the protos by the SDK, which is why it is borrowed rather than written here.
 */
export declare function transformHistoryPayloads(history: History, transform: (payloads: Payload[]) => Promise<Payload[]>): Promise<void>;
