import type { Timestamp } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';
/** A workflow's event history as the client fetches it (`handle.fetchHistory()`). */
export type History = temporal.api.history.v1.IHistory;
/**
 * Milliseconds since the epoch of a protobuf timestamp (its seconds a Long, or a number when built
 * from plain objects). Throws on a missing one: every history event has its time.
 */
export declare function tsToMs(ts: Timestamp | null | undefined): number;
/** As `tsToMs`, or undefined for an absent timestamp. */
export declare function optionalTsToMs(ts: Timestamp | null | undefined): number | undefined;
