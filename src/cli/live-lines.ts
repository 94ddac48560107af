/**
 * What an agent is writing, as `teamrun watch` and `teamrun logs --follow` print it: a line per model call in
 * progress, printed again when its text changed, and a closing line when the call ended (its step line follows).
 * Read from the run's pending attempts (client/live.ts), never from its history.
 */
import type { Client } from '@temporalio/client';
import { readLive, type LivePartial } from '../client/live';
import { oneLine } from '../format';

/** The end of the text a line shows: the line stays one line, whatever the model writes. */
const SHOWN_CHARS = 160;

/** `write · turn 2 · writing: …the last words so far · calls fs__read_file({"path":"a…` */
export function liveLine(partial: LivePartial): string {
  const flat = oneLine(partial.text, 100_000);
  const text = flat.length > SHOWN_CHARS ? `…${flat.slice(-SHOWN_CHARS)}` : flat;
  const calls = (partial.toolCalls ?? []).map((c) => `${oneLine(c.name, 80)}(${oneLine(c.args, 60)}`);
  return (
    `${oneLine(partial.key, 80)} · turn ${partial.turn} · writing: ${text || '…'}` +
    (calls.length ? ` · calls ${calls.join(', ')}` : '')
  );
}

/** Follows the partial output of a run's attempts (or one task's): each poll answers the lines that changed. */
export class LiveFollower {
  private readonly shown = new Map<string, { turn: number; line: string }>();

  constructor(
    private readonly client: Client,
    private readonly workflowId: string,
    private readonly key?: string,
  ) {}

  async poll(): Promise<string[]> {
    const now = (await readLive(this.client, this.workflowId)).filter((p) => !this.key || p.key === this.key);
    const lines: string[] = [];
    const seen = new Set<string>();
    for (const partial of now) {
      seen.add(partial.activityId);
      const line = liveLine(partial);
      if (this.shown.get(partial.activityId)?.line === line) continue;
      this.shown.set(partial.activityId, { turn: partial.turn, line });
      lines.push(line);
    }
    lines.push(...this.ended(seen));
    return lines;
  }

  /** The calls shown before that are over now (or whose attempt is): a line each, and they are forgotten. */
  private ended(seen: Set<string>): string[] {
    const lines: string[] = [];
    for (const [activityId, { turn }] of this.shown) {
      if (seen.has(activityId)) continue;
      this.shown.delete(activityId);
      lines.push(`${oneLine(activityId.slice(0, activityId.lastIndexOf('#')), 80)} · turn ${turn} · call ended`);
    }
    return lines;
  }
}
