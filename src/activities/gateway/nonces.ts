/**
 * The one-time nonces a worker's gateway drew for what it proves (gateway.ts `prove`): each is confirmed once, to the
 * run (journal, ledger) that asks about exactly what it was drawn for, within its time to live.
 */
import { ATTEMPT_MESSAGES, type ConfirmAttemptRequest, type ProvenMessage } from '../interface';

export interface PendingNonce {
  /** The digest of the secret of the attempt that sent it. */
  attempt: string;
  workflowId: string;
  key: string;
  fencingToken: number;
  message: ProvenMessage;
  /** What the proof was drawn for besides: a hash chain's anchor, a steer's text, a result, a message's request. */
  anchor?: string;
  expires: number;
}

/** Steers, step links, ledger updates and results are confirmed whether or not their attempt still runs. */
const AFTER_ITS_ATTEMPT: ReadonlySet<string> = new Set<ProvenMessage>(['steer', 'agentSteps', 'ledger', 'complete']);

export class PendingNonces {
  private readonly pending = new Map<string, PendingNonce>();

  /** At most `max` at once: past it the oldest is forgotten (its run is then told no). */
  constructor(private readonly max: number) {}

  remember(nonce: string, pending: PendingNonce): void {
    const now = Date.now();
    for (const [key, old] of this.pending) {
      if (old.expires > now && this.pending.size < this.max) break;
      this.pending.delete(key);
    }
    this.pending.set(nonce, pending);
  }

  forget(nonce: string): void {
    this.pending.delete(nonce);
  }

  clear(): void {
    this.pending.clear();
  }

  /**
   * The run's question: did this gateway draw that nonce for this request, for an attempt still running (`running`),
   * under this worker's key (`publicKey`)? Once per nonce.
   */
  confirm(request: ConfirmAttemptRequest, running: (attempt: string) => boolean, publicKey: string): boolean {
    const pending = typeof request.nonce === 'string' ? this.pending.get(request.nonce) : undefined;
    if (!pending) return false;
    this.pending.delete(request.nonce);
    return (
      pending.expires > Date.now() &&
      // A steer is the run's, handed to this worker's activity, and a ledger update its run's; the last steps of an
      // attempt, and its result, are confirmed just after it ended. Each nonce was drawn for that alone, taken once.
      (AFTER_ITS_ATTEMPT.has(pending.message) || running(pending.attempt)) &&
      pending.workflowId === request.workflowId &&
      pending.key === request.key &&
      pending.fencingToken === request.fencingToken &&
      pending.message === request.message &&
      // A run of an earlier version asks about a message without its anchor, as it did before messages were signed.
      (pending.anchor === request.anchor || (request.anchor === undefined && ATTEMPT_MESSAGES.has(pending.message))) &&
      (request.signingKey === undefined || request.signingKey === publicKey)
    );
  }
}
