/** Reading Arize Phoenix's REST API (`/v1/projects/<project>/spans`) in tests: one trace, whole. */

export interface PhoenixSpan {
  name: string;
  spanId: string;
  parentId: string | null;
  traceId: string;
  /** `openinference.span.kind` as Phoenix read it (UNKNOWN without one). */
  kind: string;
  statusCode: string;
  /** Flattened: `teamrun.task.key`, `llm.token_count.prompt`. */
  attributes: Record<string, unknown>;
}

export interface PhoenixTrace {
  traceId: string;
  spans: PhoenixSpan[];
  byName(name: string): PhoenixSpan[];
  parentOf(span: PhoenixSpan): PhoenixSpan | undefined;
  /** The span's ancestors' names, nearest first. */
  ancestors(span: PhoenixSpan): string[];
}

interface RawSpan {
  name: string;
  context: { trace_id: string; span_id: string };
  parent_id: string | null;
  span_kind: string;
  status_code: string;
  attributes: Record<string, unknown>;
}

/** Every page of spans matching `query` in the project (Phoenix's spans are all in `default` unless told). */
async function spans(url: string, query: URLSearchParams, project = 'default'): Promise<RawSpan[]> {
  const all: RawSpan[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 100; page++) {
    const params = new URLSearchParams(query);
    params.set('limit', '1000');
    if (cursor) params.set('cursor', cursor);
    const res = await fetch(`${url}/v1/projects/${project}/spans?${params.toString()}`);
    if (res.status === 404) return all; // no span yet: the project is made by the first
    if (!res.ok) throw new Error(`Phoenix ${res.status}: ${(await res.text()).slice(0, 500)}`);
    const body = (await res.json()) as { data: RawSpan[]; next_cursor: string | null };
    all.push(...body.data);
    cursor = body.next_cursor;
    if (!cursor) return all;
  }
  throw new Error('more than 100 pages of spans');
}

function asSpan(s: RawSpan): PhoenixSpan {
  return {
    name: s.name,
    spanId: s.context.span_id,
    parentId: s.parent_id,
    traceId: s.context.trace_id,
    kind: s.span_kind,
    statusCode: s.status_code,
    attributes: s.attributes,
  };
}

/** The spans matching `filters` (Phoenix's query parameters: `attribute`, `status_code`, `name`, `trace_id`). */
export async function phoenixSpans(url: string, filters: Record<string, string>): Promise<PhoenixSpan[]> {
  return (await spans(url, new URLSearchParams(filters))).map(asSpan);
}

/** The one trace holding a span with `attribute` (`key:value`), whole; null while there is none; fails if several. */
export async function phoenixTrace(url: string, attribute: string): Promise<PhoenixTrace | null> {
  const matching = await spans(url, new URLSearchParams({ attribute }));
  const ids = [...new Set(matching.map((s) => s.context.trace_id))];
  if (ids.length === 0) return null;
  if (ids.length > 1) throw new Error(`${ids.length} traces hold ${attribute}: ${ids.join(', ')}`);
  const raw = await spans(url, new URLSearchParams({ trace_id: ids[0] }));
  const all: PhoenixSpan[] = raw.map(asSpan);
  const byId = new Map(all.map((s) => [s.spanId, s]));
  const parentOf = (span: PhoenixSpan) => (span.parentId ? byId.get(span.parentId) : undefined);
  return {
    traceId: ids[0],
    spans: all,
    byName: (name) => all.filter((s) => s.name === name),
    parentOf,
    ancestors(span) {
      const names: string[] = [];
      for (let p = parentOf(span); p && names.length < 100; p = parentOf(p)) names.push(p.name);
      return names;
    },
  };
}
