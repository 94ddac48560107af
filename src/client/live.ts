/**
 * What the attempts of a run are writing now (ctx.live): read from the run's pending activities, whose last
 * heartbeat details carry a model call's partial output (src/activities/live-output.ts). Nothing of it is in any
 * history; `teamrun watch`, `teamrun logs --follow` and the MCP door's `read_events` read it here.
 */
import type { Client } from '@temporalio/client';
import type { HeartbeatDetails, LiveView } from '../activities/interface';
import { decodePayloads } from '../codec';

/** One attempt's partial output, as a watcher shows it. */
export interface LivePartial extends LiveView {
  key: string;
  fencingToken: number;
  /** The attempt's activity id, `<key>#<fencingToken>`. */
  activityId: string;
}

/** The partial output of each attempt of `workflowId` in a model call now; attempts between calls are left out. */
export async function readLive(client: Client, workflowId: string): Promise<LivePartial[]> {
  const description = await client.workflow.getHandle(workflowId).describe();
  const converter = client.options.loadedDataConverter;
  const found: LivePartial[] = [];
  for (const pending of description.raw.pendingActivities ?? []) {
    const payload = pending.heartbeatDetails?.payloads?.[0];
    const activityId = pending.activityId ?? '';
    const hash = activityId.lastIndexOf('#');
    if (!payload || hash < 1) continue;
    let details: HeartbeatDetails | undefined;
    try {
      const [decoded] = await decodePayloads(converter.payloadCodecs, [payload]);
      details = converter.payloadConverter.fromPayload<HeartbeatDetails>(decoded);
    } catch {
      // Details this client cannot decode (another codec key) show nothing rather than fail the watcher.
      continue;
    }
    const live = details?.live;
    if (!live || typeof live.text !== 'string' || typeof live.turn !== 'number') continue;
    found.push({
      ...live,
      key: activityId.slice(0, hash),
      fencingToken: Number(activityId.slice(hash + 1)),
      activityId,
    });
  }
  return found.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
