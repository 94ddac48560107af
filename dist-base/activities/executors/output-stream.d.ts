import type { Redactor } from '../redact';
/** Lines starting with this are directives to the worker; only they are ever held whole. */
export declare const DIRECTIVE_PREFIX = "::teamrun-";
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
export declare class StreamCapture {
    private readonly options;
    /** Bytes the stream carried. */
    total: number;
    /** Lines of any kind longer than `maxLineBytes`. */
    longLines: number;
    /** Directive lines dropped for their length, by their first bytes (at most 8 kept). */
    readonly droppedDirectives: string[];
    private droppedDirectiveCount;
    private readonly chunks;
    private keptBytes;
    private line;
    private lineBytes;
    private mode;
    /** Chunks read while a directive is answered (bounded: the source is paused meanwhile). */
    private backlog;
    private waiting;
    /** A directive's answer said stop: later lines are counted as bytes, never handed over. */
    private halted;
    private ended;
    private readonly drained;
    constructor(options: StreamCaptureOptions);
    get droppedDirectiveLines(): number;
    push(chunk: Buffer): void;
    /** The stream ended: a last line without a newline still counts. Resolves once every line was handed over. */
    end(): Promise<void>;
    private endPending;
    private finish;
    private scan;
    /** Holds the rest until the directive's answer, then reads on (or, told to stop, hands over nothing more). */
    private wait;
    /** The redacted tail: at most `limit` bytes of the stream's end, as text (invalid UTF-8 shown as U+FFFD). */
    tail(limit: number, redactor: Redactor): string;
    private keep;
    private feed;
    private endLine;
}
