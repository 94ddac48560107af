import { SpanStatusCode } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { ATTR } from '../../src/telemetry/spans';
import { WITHHELD, WithoutTaskText } from '../../src/telemetry/without-task-text';

describe('spans under the codec carry no task text', () => {
  it('withholds the status message, exception message and stack, and a reason in words; keeps types and codes', () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      spanProcessors: [new WithoutTaskText(new SimpleSpanProcessor(exporter))],
    });
    const tracer = provider.getTracer('t');
    const failed = tracer.startSpan('attempt a#1', {
      attributes: { [ATTR.taskKey]: 'a', [ATTR.reason]: 'TeamShellFailed' },
    });
    failed.recordException(new Error('stderr: the secret plan of task a'));
    failed.setStatus({ code: SpanStatusCode.ERROR, message: 'stderr: the secret plan of task a' });
    failed.end();
    const cancelled = tracer.startSpan('attempt b#1', {
      attributes: { [ATTR.reason]: 'cancelled by operator: see notes' },
    });
    cancelled.end();
    const [a, b] = exporter.getFinishedSpans();
    expect(JSON.stringify([a.attributes, a.events, a.status, b.attributes])).not.toContain('secret');
    expect(a.status).toEqual({ code: SpanStatusCode.ERROR, message: WITHHELD });
    expect(a.events[0].attributes).toEqual({
      'exception.type': 'Error',
      'exception.message': WITHHELD,
      'exception.stacktrace': WITHHELD,
    });
    expect(a.attributes).toEqual({ [ATTR.taskKey]: 'a', [ATTR.reason]: 'TeamShellFailed' });
    expect(b.attributes[ATTR.reason]).toBe(WITHHELD);
    expect(a.name).toBe('attempt a#1');
    expect(a.spanContext().traceId).toMatch(/^[0-9a-f]{32}$/);
  });
});
