/**
 * The agent's writes to its journal, batched: an entry the loop has settled (a tool's result, the model's answer, mail
 * that joins the next call) is owed, and rides with the next write the loop makes anyway (the next tool call's start,
 * the next model call's `beginTurn`, the `finish`), so a step costs the journal one update, not two. Nothing acts on an
 * owed entry outside this process before it is written: each write that lets the loop go on (a tool call begins, a
 * model call begins) carries what came before it, so a crash repeats at most the step in flight, as when each entry
 * was its own write. Whatever ends the loop early writes what it owes first (`flush`).
 */
import type { JournalAnswer, JournalEntry } from '../../../agent/types';
import type { AgentGateway } from './gateway';
import type { Transcript } from './transcript';

export class JournalWriter {
  private owed: JournalEntry[] = [];

  constructor(
    private readonly gateway: AgentGateway,
    private readonly transcript: Transcript,
  ) {}

  /** Entries the conversation holds from now on; the journal gets them with the next write. */
  owe(...entries: JournalEntry[]): void {
    for (const entry of entries) {
      this.owed.push(entry);
      this.transcript.add(entry);
    }
  }

  /** What is owed, then `entries`, in one append (none when nothing is). */
  async append(...entries: JournalEntry[]): Promise<void> {
    this.owe(...entries);
    if (!this.owed.length) return;
    await this.gateway.journal({ op: 'append', entries: this.take() });
  }

  /** Model call `turn` begins: what is owed is written first, in the same update; the steers that join it. */
  async beginTurn(turn: number): Promise<Extract<JournalAnswer, { op: 'beginTurn' }>> {
    const entries = this.take();
    const answer = await this.gateway.journal({ op: 'beginTurn', turn, ...(entries.length ? { entries } : {}) });
    for (const steer of answer.steers) this.transcript.add({ kind: 'steer', turn, ...steer });
    return answer;
  }

  /** The attempt's end: what is owed (the final answer) and the close, in one update. */
  async finish(): Promise<void> {
    const entries = this.take();
    await this.gateway.journal({ op: 'finish', ...(entries.length ? { entries } : {}) });
  }

  /** Writes what is owed, if anything: before the loop ends early, so the journal holds every settled step. */
  flush(): Promise<void> {
    return this.append();
  }

  private take(): JournalEntry[] {
    return this.owed.splice(0);
  }
}
