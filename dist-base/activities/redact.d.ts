/**
 * Redaction of the values a worker knows to be secret, from everything an attempt reports
 * (outputs, errors, usage, heartbeats, log tails). Each secret is caught in the forms a task
 * most easily prints it: as is, JSON-escaped, URL-encoded, hex, and base64 / base64url at any
 * alignment (so `env | base64 -w0` is caught too). Line-wrapped base64, other encodings,
 * and a secret printed in pieces are not: see docs/worker-limits.md.
 */
/** Shorter values are not redacted: they would blank out ordinary text. */
export declare const MIN_SECRET_BYTES = 6;
export interface Secret {
    /** Where the value came from (an environment variable's name), shown as `[redacted:NAME]`. */
    name: string;
    value: string;
}
export declare class Redactor {
    private readonly forms;
    /** Bytes a stream tail keeps beyond its limit, so a secret cut by the limit is still recognised. */
    readonly margin: number;
    constructor(secrets: ReadonlyArray<Secret>);
    get empty(): boolean;
    /** `text` with every secret form replaced by its marker. */
    text(text: string): string;
    /** A JSON-like value with every string in it (object keys included) redacted. */
    deep<T>(value: T): T;
    /**
     * The last `limit` bytes of a stream whose kept end is `kept`, redacted before the cut: a
     * secret the cut would split is replaced whole. `truncated` says bytes before `kept` were
     * dropped, in which case its first `margin` bytes may hold the end of a secret whose start is
     * gone, and are never shown.
     */
    tail(kept: Buffer, limit: number, truncated: boolean): string;
    private walk;
    /** Non-overlapping [start, end, marker] byte ranges of secret forms in `raw`, in order. */
    private matches;
    /** `bytes` from `from` on, each match that starts there or later replaced by its marker. */
    private render;
}
/** The forms of `value` a task is likely to print. */
export declare function encodedForms(value: string): string[];
