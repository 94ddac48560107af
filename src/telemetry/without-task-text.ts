/**
 * With the payload codec on, a task's text (its failure message, stderr tail, stack) is ciphertext
 * in history; a span must not carry it as plaintext either. This span processor stands before the
 * exporter and withholds every free text a span can hold: the status message, the `exception.*`
 * attributes of an exception event but its type, and any teamrun text attribute that is not a
 * short code. Names, ids, counts, outcomes and types stay (docs/observability.md).
 */
import type { Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ATTR } from './spans';

export const WITHHELD = '[withheld: payload codec on]';

/** Attributes that may hold a reason in words; kept only while they read as a code (a failure type). */
const TEXT_ATTRIBUTES: ReadonlySet<string> = new Set([ATTR.reason, 'error.message', 'exception.message']);
const CODE = /^[A-Za-z0-9_.:-]{1,100}$/;

export class WithoutTaskText implements SpanProcessor {
  constructor(private readonly next: SpanProcessor) {}

  onStart(span: Span, parentContext: Context): void {
    this.next.onStart(span, parentContext);
  }

  onEnd(span: ReadableSpan): void {
    this.next.onEnd(withoutTaskText(span));
  }

  forceFlush(): Promise<void> {
    return this.next.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.next.shutdown();
  }
}

/** The span as exported: the same, through its prototype, with its texts withheld. */
export function withoutTaskText(span: ReadableSpan): ReadableSpan {
  const status = span.status.message ? { code: span.status.code, message: WITHHELD } : span.status;
  const events = span.events.map((event) =>
    event.name === 'exception' && event.attributes
      ? {
          ...event,
          attributes: Object.fromEntries(
            Object.entries(event.attributes).map(([k, v]) => [k, k === 'exception.type' ? v : WITHHELD]),
          ),
        }
      : event,
  );
  const attributes = Object.fromEntries(
    Object.entries(span.attributes).map(([k, v]) => [
      k,
      TEXT_ATTRIBUTES.has(k) && !(typeof v === 'string' && CODE.test(v)) ? WITHHELD : v,
    ]),
  );
  return Object.create(span, {
    status: { value: status, enumerable: true },
    events: { value: events, enumerable: true },
    attributes: { value: attributes, enumerable: true },
  }) as ReadableSpan;
}
