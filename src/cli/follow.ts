/**
 * `teamrun logs RUN KEY --follow`: while the task's attempt runs, its agent transcript's steps as they are
 * journaled and what a model call is writing now (ctx.live), a line each; it ends when that attempt ends.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import { readTranscript, renderEntry } from '../operator/agent-transcript';
import { LiveFollower } from './live-lines';

/** As `teamrun watch` polls: live enough to read, cheap for the worker that answers the journal's query. */
const POLL_MS = 500;

/**
 * Follows the attempt of `key` that runs now, or the next one to start; resolves when it has ended (at once when
 * `settled()` says the task has an attempt and none runs, or when the run is closed).
 */
export async function followTask(
  client: Client,
  workflowId: string,
  key: string,
  settled: () => Promise<boolean>,
  write: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Promise<void> {
  const live = new LiveFollower(client, workflowId, key);
  const handle = client.workflow.getHandle(workflowId);
  let printed = 0;
  let seen = false;
  for (;;) {
    const description = await handle.describe();
    const running = (description.raw.pendingActivities ?? []).some((a) => a.activityId?.startsWith(`${key}#`));
    const journal = await readTranscript(client, workflowId, key).catch(() => null);
    for (const entry of journal?.entries.slice(printed) ?? []) write(renderEntry(entry));
    printed = Math.max(printed, journal?.entries.length ?? 0);
    for (const line of await live.poll().catch(() => [])) write(line);
    if (description.status.name !== 'RUNNING' || (!running && (seen || (await settled())))) return;
    seen ||= running;
    await delay(POLL_MS);
  }
}
