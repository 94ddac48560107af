/**
 * An agent's steps as `teamrun watch` prints them under the counts: one line per model turn and per tool call,
 * read from the run's `agent:turn` and `agent:tool` events (what its worker reported, src/team/agents.ts).
 */
import type { RunEvent } from '../contract';
import { count, oneLine } from '../format';
import { eventsQuery } from '../workflows/messages';
import type { TeamRunHandle } from '../client';

/** Events read per query: the run keeps a bounded ring of them, and a watcher catches up a page at a time. */
const PAGE = 500;

/** `write · turn 2 · 1,240 tokens (1,200 in, 40 out) · calls fs__read_file`, or `write · turn 2 · tool ... · ok`. */
export function stepLine(event: RunEvent): string | null {
  const key = oneLine(text(event.key), 80);
  const turn = Number(event.turn ?? 0);
  if (event.type === 'agent:turn') {
    const input = Number(event.inputTokens ?? 0);
    const output = Number(event.outputTokens ?? 0);
    const tools = Array.isArray(event.tools) ? (event.tools as unknown[]).map(text) : [];
    return (
      `${key} · turn ${turn} · ${count(input + output)} tokens (${count(input)} in, ${count(output)} out) · ` +
      (tools.length ? `calls ${oneLine(tools.join(', '), 200)}` : 'answers')
    );
  }
  if (event.type === 'agent:tool') {
    const tool = oneLine(text(event.tool), 80);
    return `${key} · turn ${turn} · tool ${tool} · ${count(Number(event.ms ?? 0))} ms · ${event.ok ? 'ok' : 'failed'}`;
  }
  return null;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '?');

/** Follows a run's events from its first: each poll answers the step lines of the events it had not seen. */
export class StepFollower {
  private after = 0;

  constructor(private readonly handle: TeamRunHandle) {}

  async poll(): Promise<string[]> {
    const lines: string[] = [];
    for (;;) {
      const page = await this.handle.query(eventsQuery, { after: this.after, limit: PAGE });
      for (const event of page.events) {
        const line = stepLine(event);
        if (line) lines.push(line);
      }
      if (page.events.length === 0 || page.nextSeq <= this.after) return lines;
      this.after = page.nextSeq;
      if (page.events.length < PAGE) return lines;
    }
  }
}
