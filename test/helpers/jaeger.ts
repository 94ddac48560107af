/** Reading Jaeger's query API (`/api/traces`) in tests. */

export interface JaegerSpan {
  traceID: string;
  spanID: string;
  operationName: string;
  references: Array<{ refType: string; traceID: string; spanID: string }>;
  tags: Array<{ key: string; type: string; value: unknown }>;
  processID: string;
}

export interface JaegerTrace {
  traceID: string;
  spans: JaegerSpan[];
  serviceOf(span: JaegerSpan): string;
}

interface RawTrace {
  traceID: string;
  spans: JaegerSpan[];
  processes: Record<string, { serviceName: string }>;
}

export function spanTag(span: JaegerSpan, key: string): unknown {
  return span.tags.find((t) => t.key === key)?.value;
}

/** The one trace of `service` whose spans carry `tags` (null while there is none); it fails if there are several. */
export async function jaegerTrace(
  queryUrl: string,
  service: string,
  tags: Record<string, string>,
): Promise<JaegerTrace | null> {
  const search = new URLSearchParams({ service, tags: JSON.stringify(tags), limit: '20', lookback: '1h' });
  const found = (await (await fetch(`${queryUrl}/api/traces?${search.toString()}`)).json()) as {
    data: RawTrace[] | null;
  };
  const ids = [...new Set((found.data ?? []).map((t) => t.traceID))];
  if (ids.length === 0) return null;
  if (ids.length > 1) throw new Error(`${ids.length} traces for ${JSON.stringify(tags)}: ${ids.join(', ')}`);
  const whole = (await (await fetch(`${queryUrl}/api/traces/${ids[0]}`)).json()) as { data: RawTrace[] };
  const raw = whole.data[0];
  return {
    traceID: raw.traceID,
    spans: raw.spans,
    serviceOf: (span) => raw.processes[span.processID]?.serviceName ?? '',
  };
}
