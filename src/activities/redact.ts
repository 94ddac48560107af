/**
 * Redaction of the values a worker knows to be secret, from everything an attempt reports
 * (outputs, errors, usage, heartbeats, log tails). Each secret is caught in the forms a task
 * most easily prints it: as is, JSON-escaped, URL-encoded, hex, and base64 / base64url at any
 * alignment (so `env | base64 -w0` is caught too). Line-wrapped base64, other encodings,
 * and a secret printed in pieces are not: see docs/worker-limits.md.
 */

/** Shorter values are not redacted: they would blank out ordinary text. */
export const MIN_SECRET_BYTES = 6;
/** An encoded form shorter than this is too likely to match ordinary text. */
const MIN_ENCODED_FORM = 8;

export interface Secret {
  /** Where the value came from (an environment variable's name), shown as `[redacted:NAME]`. */
  name: string;
  value: string;
}

type Match = [start: number, end: number, marker: string];

interface Form {
  /** The form's bytes as a latin1 string, so byte offsets and string offsets agree. */
  bytes: string;
  marker: string;
}

export class Redactor {
  private readonly forms: Form[];
  /** Bytes a stream tail keeps beyond its limit, so a secret cut by the limit is still recognised. */
  readonly margin: number;

  constructor(secrets: ReadonlyArray<Secret>) {
    const seen = new Map<string, Form>();
    for (const { name, value } of secrets) {
      if (Buffer.byteLength(value) < MIN_SECRET_BYTES) continue;
      const marker = `[redacted:${name}]`;
      for (const form of encodedForms(value)) {
        const bytes = Buffer.from(form, 'utf8').toString('latin1');
        if (!seen.has(bytes)) seen.set(bytes, { bytes, marker });
      }
    }
    // Longest first: a secret that contains another is replaced whole.
    this.forms = [...seen.values()].sort((a, b) => b.bytes.length - a.bytes.length);
    this.margin = this.forms.length ? this.forms[0].bytes.length : 0;
  }

  get empty(): boolean {
    return this.forms.length === 0;
  }

  /** `text` with every secret form replaced by its marker. */
  text(text: string): string {
    if (this.empty || !text) return text;
    const bytes = Buffer.from(text, 'utf8');
    const matches = this.matches(bytes.toString('latin1'));
    return matches.length ? this.render(bytes, 0, matches).toString('utf8') : text;
  }

  /** A JSON-like value with every string in it (object keys included) redacted. */
  deep<T>(value: T): T {
    if (this.empty) return value;
    return this.walk(value, 0) as T;
  }

  /**
   * The last `limit` bytes of a stream whose kept end is `kept`, redacted before the cut: a
   * secret the cut would split is replaced whole. `truncated` says bytes before `kept` were
   * dropped, in which case its first `margin` bytes may hold the end of a secret whose start is
   * gone, and are never shown.
   */
  tail(kept: Buffer, limit: number, truncated: boolean): string {
    const raw = kept.toString('latin1');
    const matches = this.matches(raw);
    let cut = Math.max(0, kept.length - limit);
    if (truncated) cut = Math.max(cut, Math.min(this.margin, kept.length));
    for (const [start, end] of matches) if (start < cut && cut < end) cut = start;
    let out = this.render(kept, cut, matches);
    if (out.length > limit) out = out.subarray(out.length - limit);
    return out.toString('utf8');
  }

  /**
   * `text` without a tail that could be the start of a secret still being written (text streamed a piece at a
   * time): such a tail is held back until the next piece shows whether it is one. Redact the rest with `text`.
   */
  withoutOpenEnd(text: string): string {
    if (this.empty || !text) return text;
    const raw = Buffer.from(text.slice(-this.margin), 'utf8').toString('latin1');
    let open = 0;
    for (const form of this.forms) {
      for (let n = Math.min(form.bytes.length - 1, raw.length); n > open; n--) {
        if (raw.endsWith(form.bytes.slice(0, n))) {
          open = n;
          break;
        }
      }
    }
    if (!open) return text;
    const bytes = Buffer.from(text, 'utf8');
    return bytes.subarray(0, bytes.length - open).toString('utf8');
  }

  private walk(value: unknown, depth: number): unknown {
    if (typeof value === 'string') return this.text(value);
    if (value === null || typeof value !== 'object' || depth > 64) return value;
    if (Array.isArray(value)) return value.map((v) => this.walk(v, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      Object.defineProperty(out, this.text(k), {
        value: this.walk(v, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }

  /** Non-overlapping [start, end, marker] byte ranges of secret forms in `raw`, in order. */
  private matches(raw: string): Match[] {
    const found: Match[] = [];
    for (const form of this.forms) {
      for (let at = raw.indexOf(form.bytes); at !== -1; at = raw.indexOf(form.bytes, at + 1)) {
        found.push([at, at + form.bytes.length, form.marker]);
      }
    }
    found.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
    const merged: Match[] = [];
    for (const m of found) {
      const last = merged[merged.length - 1];
      if (last && m[0] < last[1]) last[1] = Math.max(last[1], m[1]);
      else merged.push(m);
    }
    return merged;
  }

  /** `bytes` from `from` on, each match that starts there or later replaced by its marker. */
  private render(bytes: Buffer, from: number, matches: ReadonlyArray<Match>): Buffer {
    const parts: Buffer[] = [];
    let at = from;
    for (const [start, end, marker] of matches) {
      if (start < at) continue;
      parts.push(bytes.subarray(at, start), Buffer.from(marker));
      at = end;
    }
    parts.push(bytes.subarray(at));
    return Buffer.concat(parts);
  }
}

/** The forms of `value` a task is likely to print. */
export function encodedForms(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const forms = new Set<string>([value]);
  forms.add(JSON.stringify(value).slice(1, -1));
  forms.add(encodeURIComponent(value));
  forms.add(encodeURIComponent(value).replace(/%20/g, '+'));
  forms.add(bytes.toString('hex'));
  forms.add(bytes.toString('hex').toUpperCase());
  for (let shift = 0; shift < 3; shift++) {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    // Only the characters that depend on the secret's bits alone, whatever surrounds it.
    const first = Math.ceil((8 * shift) / 6);
    const last = Math.floor((8 * (shift + bytes.length)) / 6);
    const stable = encoded.slice(first, last);
    if (stable.length < MIN_ENCODED_FORM) continue;
    forms.add(stable);
    forms.add(stable.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...forms].filter((f) => f === value || f.length >= MIN_ENCODED_FORM);
}
