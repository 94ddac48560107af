/**
 * The stall watch of one attempt (docs/leases.md#stalls): a lease says the worker is alive, a stall
 * says the work is not moving. The executor tells the watch of each step (`ctx.moved`, and every
 * `ctx.progress`): an agent's model call or tool call starting or ending, a CLI's stream event, a
 * shell's output. Past the task's `stallAfterMs` without one, the watch calls `onStall` once with
 * what it saw last; the attempt is then stopped like an interrupt and fails `TEAM_TASK_STALLED`.
 */
import { ApplicationFailure } from '@temporalio/activity';
import { STALLED_CODE } from '../team/routing';
import type { AttemptEvidence } from './interface';
import type { Redactor } from './redact';

/** The failure type of a stalled attempt, and its adjudication's code. */
export const STALLED = STALLED_CODE;

/** How often the watch looks, at most and at least: a stall is seen within half a second of its bound. */
const LOOK_MS = { min: 100, max: 500 } as const;
/** A step's name as the watch keeps it. */
const MAX_STEP_CHARS = 200;

export interface Stall {
  afterMs: number;
  /** The last step the attempt made, or null when it made none. */
  step: string | null;
  /** How long before the stop the last step was (or the attempt started). */
  agoMs: number;
}

export class StallWatch {
  private last: { step: string; at: number } | null = null;
  /** The executor names its steps (`ctx.moved`): its progress reports no longer count on their own. */
  private named = false;
  private readonly started: number;
  private readonly timer: NodeJS.Timeout;
  /** Set once the watch fired. */
  stalled: Stall | null = null;

  constructor(
    readonly afterMs: number,
    private readonly onStall: (stall: Stall) => void,
    now = Date.now(),
  ) {
    this.started = now;
    const every = Math.min(LOOK_MS.max, Math.max(LOOK_MS.min, Math.floor(afterMs / 4)));
    this.timer = setInterval(() => this.look(), every);
  }

  /** The attempt made a step (named for the adjudication's reason). */
  moved(step: string, now = Date.now()): void {
    if (this.stalled) return;
    this.named = true;
    this.last = { step: step.slice(0, MAX_STEP_CHARS), at: now };
  }

  /** The executor reported progress (`ctx.progress`): a step of an executor that names none of its own. */
  progressed(now = Date.now()): void {
    if (this.stalled || this.named) return;
    this.last = { step: 'progress reported', at: now };
  }

  /** Fires once the attempt has made no step for `afterMs`; true when it has (now or before). */
  look(now = Date.now()): boolean {
    if (this.stalled) return true;
    const since = this.last?.at ?? this.started;
    if (now - since < this.afterMs) return false;
    this.stalled = { afterMs: this.afterMs, step: this.last?.step ?? null, agoMs: now - since };
    this.end();
    this.onStall(this.stalled);
    return true;
  }

  end(): void {
    clearInterval(this.timer);
  }
}

/** What an adjudication says of a stall: the bound, the last step and how long ago it was. */
export function stallMessage(stall: Stall): string {
  const ago = `${(stall.agoMs / 1000).toFixed(1)} s`;
  const last =
    stall.step === null ? `no progress since the attempt started ${ago} ago` : `last step: ${stall.step}, ${ago} ago`;
  return `the attempt made no progress for its stallAfterMs (${stall.afterMs} ms) and was stopped; ${last}`;
}

/** The failure of an attempt that made no step for its stallAfterMs: not retried, adjudicated `TEAM_TASK_STALLED`. */
export function stalledFailure(stall: Stall, redactor: Redactor, evidence: AttemptEvidence): ApplicationFailure {
  return ApplicationFailure.create({
    type: STALLED,
    message: redactor.text(stallMessage(stall)),
    nonRetryable: true,
    details: [evidence],
  });
}
