import type { Timestamp } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';

/** A workflow's event history as the client fetches it (`handle.fetchHistory()`). */
export type History = temporal.api.history.v1.IHistory;

/**
 * Milliseconds since the epoch of a protobuf timestamp (its seconds a Long, or a number when built
 * from plain objects). Throws on a missing one: every history event has its time.
 */
export function tsToMs(ts: Timestamp | null | undefined): number {
  if (ts == null) throw new Error(`Expected timestamp, got ${ts}`);
  const seconds = ts.seconds == null ? 0 : typeof ts.seconds === 'number' ? ts.seconds : ts.seconds.toNumber();
  return seconds * 1000 + Math.floor((ts.nanos ?? 0) / 1_000_000);
}

/** As `tsToMs`, or undefined for an absent timestamp. */
export function optionalTsToMs(ts: Timestamp | null | undefined): number | undefined {
  return ts == null ? undefined : tsToMs(ts);
}

/** Whether the history recorded rule change `id` (the marker a workflow's `patched(id)` leaves). */
export function hasPatch(history: History, id: string): boolean {
  return (history.events ?? []).some((event) => {
    const marker = event.markerRecordedEventAttributes;
    const data = marker?.markerName === 'core_patch' ? marker.details?.['patch-data']?.payloads?.[0]?.data : null;
    if (!data) return false;
    try {
      return (JSON.parse(new TextDecoder().decode(data)) as { id?: unknown }).id === id;
    } catch {
      return false;
    }
  });
}
