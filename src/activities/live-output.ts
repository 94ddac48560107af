/**
 * `ctx.live` for an attempt: a model call's partial output, published in the attempt's own heartbeat details
 * (docs/observability.md#live-output). Throttled (one publish per `publishEveryMs`, the latest state wins),
 * bounded (LIVE_LIMITS) and redacted at each publish. A heartbeat adds no event to any history: the server keeps
 * the last details of a pending activity in its mutable state (what `describe()` and the Web UI's pending
 * activities show), encoded by the worker's payload codec like every other payload.
 */
import type { LiveView } from './interface';
import type { LiveOutput, PartialOutput } from './executors/live';
import type { Redactor } from './redact';

export const LIVE_LIMITS = {
  /** At most one publish (one heartbeat) per second per attempt. */
  publishEveryMs: 1_000,
  /** The tail of the text a publish carries. */
  textBytes: 4_096,
  /** Tool calls a publish carries (the last ones), each its name and the tail of its arguments. */
  toolCalls: 8,
  toolNameChars: 128,
  argsBytes: 1_024,
} as const;

export class LivePublisher implements LiveOutput {
  private current: PartialOutput | null = null;
  private shown: LiveView | undefined;
  private timer: NodeJS.Timeout | undefined;
  private lastAt = 0;
  private ended = false;
  /** Publishes sent (heartbeats asked for), for the benchmark. */
  published = 0;

  constructor(
    private readonly redactor: Redactor,
    /** Sends a heartbeat at once; it carries `view()`. */
    private readonly publish: () => void,
    private readonly everyMs: number = LIVE_LIMITS.publishEveryMs,
  ) {}

  partial(output: PartialOutput): void {
    if (this.ended || !output || !Number.isInteger(output.turn) || typeof output.text !== 'string') return;
    this.current = output;
    this.schedule();
  }

  done(turn: number): void {
    // A later call's partial output stands: it replaces this one at the next publish.
    const mine = this.current ? this.current.turn === turn : this.shown?.turn === turn;
    if (this.ended || !mine) return;
    this.current = null;
    this.schedule();
  }

  /** What the attempt's heartbeats carry now: the last published partial output, or nothing between calls. */
  view(): LiveView | undefined {
    return this.shown;
  }

  /** The executor ended: nothing more is published. */
  end(): void {
    this.ended = true;
    clearTimeout(this.timer);
    this.current = null;
    this.shown = undefined;
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), Math.max(0, this.lastAt + this.everyMs - Date.now()));
  }

  private flush(): void {
    this.timer = undefined;
    if (this.ended) return;
    const next = this.current ? bounded(this.current, this.redactor) : undefined;
    if (next === undefined && this.shown === undefined) return;
    this.shown = next;
    this.lastAt = Date.now();
    this.published++;
    this.publish();
  }
}

/** The partial output as a heartbeat carries it: tails only, every string redacted (a secret still open held back). */
export function bounded(output: PartialOutput, redactor: Redactor): LiveView {
  const { text, cut } = tail(output.text, LIVE_LIMITS.textBytes, redactor);
  const calls = Array.isArray(output.toolCalls) ? output.toolCalls.slice(-LIVE_LIMITS.toolCalls) : [];
  const toolCalls = calls.map((call) => ({
    name: redactor.text(String(call?.name ?? '').slice(0, LIVE_LIMITS.toolNameChars)),
    args: tail(String(call?.args ?? ''), LIVE_LIMITS.argsBytes, redactor).text,
  }));
  return {
    turn: output.turn,
    text,
    ...(cut ? { cut: true } : {}),
    ...(toolCalls.length ? { toolCalls } : {}),
    at: Date.now(),
  };
}

/** The last `limit` bytes of `text` so far, redacted before the cut (a secret across the cut is replaced whole). */
function tail(text: string, limit: number, redactor: Redactor): { text: string; cut: boolean } {
  const settled = redactor.withoutOpenEnd(text);
  const bytes = Buffer.from(settled, 'utf8');
  // Redact a window one longest secret wider than the tail, so that a secret across the cut is caught whole.
  const window =
    bytes.length > limit + redactor.margin ? bytes.subarray(bytes.length - limit - redactor.margin) : bytes;
  const truncated = window.length < bytes.length;
  return { text: redactor.tail(window, limit, truncated), cut: bytes.length > limit };
}
