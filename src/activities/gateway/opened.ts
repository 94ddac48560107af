/** What the attempt gateway gives a worker for one attempt it registered (gateway.ts). */
import type { AttemptProof } from '../../contract';
import type { LiveBudget } from '../executors/types';
import type { AttemptAccess } from '../interface';
import type { AttemptAsk } from '../executors/mailbox-access';
import type { AskRun } from '../live-budget';
import type { Redactor } from '../redact';

/** What one attempt's registration gives its worker. */
export type { AttemptAsk };

export interface OpenedAttempt {
  /** Its executor never hands its processes the secret: `access` is not for it. */
  readonly lazy: boolean;
  /** Registers a lazy attempt: its processes are about to hold its secret. */
  readonly access: AttemptAccess;
  /** The worker's secrets and, once registered, the attempt's own. */
  readonly redactor: Redactor;
  close(): void;
  /** `teamrun reserve` inside the task asks this reservation. */
  attachBudget(budget: LiveBudget): void;
  /** Asks the run for more budget as this attempt (`extendReservation`, confirmed like every attempt message). */
  extend: AskRun;
  /** Sends `sendMessage` or `readInbox` as this attempt (what `ctx.sendMessage` and `ctx.readInbox` use). */
  ask: AttemptAsk;
  /**
   * What the attempt's next `agentSteps` signal carries as its proof: the first, the anchor of a new
   * hash chain with a one-time nonce its run confirms with this worker; every later one, the next link.
   */
  stepsProof(): StepsProof;
  /** A one-time nonce its run confirms with this worker for the attempt's result (`complete`), bound to `digest`. */
  completionProof(digest: string): AttemptProof;
}

export type StepsProof = { anchor: string; attempt: AttemptProof } | { link: string };
