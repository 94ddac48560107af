/**
 * Which running agents to tell that mail came for them (src/workflows/mail-hints.ts sends the word to each one's
 * journal). An agent reads its inbox before a model call only when told, so a turn with no mail costs the run
 * nothing. Pure: the run's state in, the hints out. What was told lives here, not in the snapshot: after a
 * continue-as-new the mail still unread is told once more (a hint is harmless twice).
 */
import type { RunContext } from './context';

export interface MailHint {
  key: string;
  /** The greatest id of the mail waiting for the task's attempt (what its inbox peek would hand it). */
  upTo: number;
}

export class MailHints {
  /** The greatest message id looked at: hints are worked out only when a newer one came. */
  private seen = 0;
  /** What each attempt (task and fencing token) was last told. */
  private readonly told = new Map<string, number>();

  due(run: RunContext): MailHint[] {
    const sent = run.mailbox.status().sent;
    if (sent <= this.seen) return [];
    this.seen = sent;
    const hints: MailHint[] = [];
    for (const key of run.leases.keys()) {
      const attempt = run.leases.get(key)!;
      const i = run.graph.indexOf(key);
      if (attempt.stop || i === undefined || run.graph.specs[i].executor.kind !== 'agent') continue;
      // A peek: the cursors stay where they are, and nothing is recorded.
      const waiting = run.mailbox.deliver(key, attempt.holder, true);
      if (!waiting.length) continue;
      const upTo = waiting[waiting.length - 1].id;
      const id = `${key}#${attempt.fencingToken}`;
      if ((this.told.get(id) ?? 0) >= upTo) continue;
      this.told.set(id, upTo);
      hints.push({ key, upTo });
    }
    // Attempts that ended are forgotten.
    if (this.told.size > 4 * run.leases.size + 64) this.told.clear();
    return hints;
  }
}
