import type { Redactor } from '../redact';

/** Lines starting with this are directives to the worker; only they are ever held whole. */
export const DIRECTIVE_PREFIX = '::teamrun-';
const PREFIX = Buffer.from(DIRECTIVE_PREFIX);
const NEWLINE = 0x0a;

export interface StreamCaptureOptions {
  /** Bytes of the stream's end kept for tails (the tail limit plus the redactor's margin). */
  keepBytes: number;
  /** A directive line longer than this is dropped, not parsed. */
  maxLineBytes: number;
  /**
   * Called with each complete directive line (newline and a trailing CR removed). A promise holds
   * the lines after it until it settles (the stream is paused meanwhile); `false` hands over no more.
   */
  onDirective?: (line: string) => void | Promise<boolean>;
  /** Asked to pause the stream's source while a directive is being answered, and to resume it after. */
  pause?: (paused: boolean) => void;
}

/**
 * One output stream of a child process, read as bytes with bounded memory whatever its shape:
 * one endless line, many lines, binary. Keeps the last `keepBytes` bytes for a tail, and hands
 * over the `::teamrun-*::` lines up to `maxLineBytes`; no other line is ever held whole.
 */
export class StreamCapture {
  /** Bytes the stream carried. */
  total = 0;
  /** Lines of any kind longer than `maxLineBytes`. */
  longLines = 0;
  /** Directive lines dropped for their length, by their first bytes (at most 8 kept). */
  readonly droppedDirectives: string[] = [];
  private droppedDirectiveCount = 0;
  private readonly chunks: Buffer[] = [];
  private keptBytes = 0;
  // The line being read: its first bytes while undecided, all of it while a directive.
  private line: Buffer[] = [];
  private lineBytes = 0;
  private mode: 'undecided' | 'directive' | 'other' | 'overlong' = 'undecided';
  /** Chunks read while a directive is answered (bounded: the source is paused meanwhile). */
  private backlog: Buffer[] = [];
  private waiting = false;
  /** A directive's answer said stop: later lines are counted as bytes, never handed over. */
  private halted = false;
  private ended: (() => void) | null = null;
  private readonly drained: Promise<void>;

  constructor(private readonly options: StreamCaptureOptions) {
    this.drained = new Promise((resolve) => (this.ended = resolve));
  }

  get droppedDirectiveLines(): number {
    return this.droppedDirectiveCount;
  }

  /** Bytes it holds now: the kept end, the line being read and what waits on a directive's answer. */
  get heldBytes(): number {
    const sum = (buffers: Buffer[]) => buffers.reduce((n, b) => n + b.length, 0);
    return this.keptBytes + sum(this.line) + sum(this.backlog);
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    this.keep(chunk);
    if (this.waiting) this.backlog.push(chunk);
    else this.scan(chunk);
  }

  /** The stream ended: a last line without a newline still counts. Resolves once every line was handed over. */
  end(): Promise<void> {
    this.endPending = true;
    if (!this.waiting) this.finish();
    return this.drained;
  }

  private endPending = false;

  private finish(): void {
    const answer = this.lineBytes > 0 && !this.halted ? this.endLine() : undefined;
    // A last line's answer (a usage line without a newline) is waited for too.
    if (answer) void answer.catch(() => false).then(() => this.ended?.());
    else this.ended?.();
  }

  private scan(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, at);
      const end = newline === -1 ? chunk.length : newline;
      this.feed(chunk.subarray(at, end));
      if (newline === -1) break;
      const answer = this.endLine();
      at = newline + 1;
      if (answer) {
        this.wait(answer, chunk.subarray(at));
        return;
      }
    }
  }

  /** Holds the rest until the directive's answer, then reads on (or, told to stop, hands over nothing more). */
  private wait(answer: Promise<boolean>, rest: Buffer): void {
    this.waiting = true;
    this.backlog.unshift(rest);
    this.options.pause?.(true);
    const go = (more: boolean) => {
      if (!more) this.halted = true;
      this.waiting = false;
      const backlog = this.backlog.splice(0);
      for (let i = 0; i < backlog.length; i++) {
        this.scan(backlog[i]);
        if (this.waiting) {
          this.backlog.push(...backlog.slice(i + 1));
          return;
        }
      }
      this.options.pause?.(false);
      if (this.endPending) this.finish();
    };
    answer.then(go, () => go(false));
  }

  /** The redacted tail: at most `limit` bytes of the stream's end, as text (invalid UTF-8 shown as U+FFFD). */
  tail(limit: number, redactor: Redactor): string {
    const kept = Buffer.concat(this.chunks);
    return redactor.tail(kept, limit, this.total > kept.length);
  }

  private keep(chunk: Buffer): void {
    const { keepBytes } = this.options;
    const piece = chunk.length > keepBytes ? chunk.subarray(chunk.length - keepBytes) : chunk;
    this.chunks.push(piece);
    this.keptBytes += piece.length;
    while (this.keptBytes - this.chunks[0].length >= keepBytes) this.keptBytes -= this.chunks.shift()!.length;
  }

  private feed(piece: Buffer): void {
    if (piece.length === 0) return;
    const before = this.lineBytes;
    this.lineBytes += piece.length;
    if (before <= this.options.maxLineBytes && this.lineBytes > this.options.maxLineBytes) this.longLines++;
    if (this.mode === 'other' || this.mode === 'overlong') return;
    this.line.push(piece);
    if (this.mode === 'undecided') {
      if (this.lineBytes < PREFIX.length) return;
      const head = Buffer.concat(this.line);
      this.line = [head];
      if (!head.subarray(0, PREFIX.length).equals(PREFIX)) {
        this.mode = 'other';
        this.line = [];
        return;
      }
      this.mode = 'directive';
    }
    if (this.lineBytes > this.options.maxLineBytes) {
      this.droppedDirectiveCount++;
      if (this.droppedDirectives.length < 8) {
        const head = Buffer.concat(this.line).subarray(0, 40).toString('utf8');
        const end = head.indexOf('::', PREFIX.length);
        this.droppedDirectives.push(end === -1 ? head : head.slice(0, end + 2));
      }
      this.mode = 'overlong';
      this.line = [];
    }
  }

  private endLine(): Promise<boolean> | undefined {
    let answer: Promise<boolean> | undefined;
    if (!this.halted && (this.mode === 'directive' || this.mode === 'undecided')) {
      const line = Buffer.concat(this.line).toString('utf8').replace(/\r$/, '');
      if (line.startsWith(DIRECTIVE_PREFIX)) answer = this.options.onDirective?.(line) ?? undefined;
    }
    this.line = [];
    this.lineBytes = 0;
    this.mode = 'undecided';
    return answer;
  }
}
