/** A signal's or update's row in a report's control table, read from its payload: who asked, what, which task. */
import type { MessageEdge } from './graph';
import type { ControlRecord } from './model';

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

export function controlRecord(
  via: 'signal' | 'update',
  name: string,
  payload: unknown,
  at: number,
  identity: string | null,
): ControlRecord {
  const fields = (payload && typeof payload === 'object' ? payload : {}) as Record<string, unknown>;
  const key = text(fields.key);
  const fencingToken =
    typeof fields.fencingToken === 'number'
      ? fields.fencingToken
      : fields.fencingToken
        ? Number(fields.fencingToken)
        : null;
  const reason = text(fields.reason);
  let summary: string;
  if (name === 'interruptTask') summary = `interrupt ${key ?? '?'} (token ${fencingToken ?? '?'})`;
  else if (name === 'abortRun')
    summary = `abort the run${fields.requireAdjudication === false ? ' (no adjudication)' : ''}`;
  else if (name === 'adjudicate')
    summary = `${text(fields.decision) ?? '?'} ${key ?? '?'} (decision ${text(fields.decisionId) ?? '?'})`;
  else if (name === 'sendMessage')
    summary =
      `message ${text(fields.from) ?? '?'} ` +
      `→ ${text(fields.to) ?? '?'}${text(fields.subject) ? `: ${text(fields.subject)}` : ''}`;
  else if (name === 'steerTask') summary = `steer ${key ?? '?'}: ${(text(fields.text) ?? '').slice(0, 120)}`;
  else if (name === 'readInbox') summary = `${key ?? '?'} reads its inbox${fields.peek === true ? ' (peek)' : ''}`;
  else if (name === 'addTasks') summary = addedSummary(fields.tasks);
  else summary = name;
  if (reason) summary += `: ${reason}`;
  // A message is drawn on its recipient's row (or its sender's, for a broadcast or the coordinator).
  const row =
    name === 'sendMessage'
      ? ([text(fields.to), text(fields.from)].find((k) => k && k !== '*' && k !== 'coordinator') ?? null)
      : key;
  return {
    at,
    via,
    name,
    actor: text(fields.actor) ?? taskOf(name, fields, fencingToken),
    identity,
    key: row,
    fencingToken,
    summary,
    verdict: null,
    ...(name === 'sendMessage' && text(fields.from) && text(fields.to)
      ? { message: { from: text(fields.from)!, to: text(fields.to)! } }
      : {}),
  };
}

/** Who messaged whom, from the `sendMessage` updates the run took (a repeat answered `idempotent` not counted). */
export function messageEdges(control: ReadonlyArray<ControlRecord>): MessageEdge[] {
  const edges = new Map<string, MessageEdge>();
  for (const c of control) {
    if (!c.message || (c.verdict !== null && c.verdict !== 'ok')) continue;
    const id = JSON.stringify([c.message.from, c.message.to]);
    const edge = edges.get(id) ?? { ...c.message, count: 0 };
    edge.count += 1;
    edges.set(id, edge);
  }
  return [...edges.values()];
}

/**
 * The task a request comes from when its attempt sent it (through its worker's gateway, which adds the proof):
 * `task <key>#<token>`. Temporal records the worker's client identity (`24629@vm`), which is who carried it.
 */
function taskOf(name: string, fields: Record<string, unknown>, fencingToken: number | null): string | null {
  if (!fields.attempt || typeof fields.attempt !== 'object') return null;
  const key = text(name === 'addTasks' ? fields.parent : name === 'sendMessage' ? fields.from : fields.key);
  return key ? `task ${key}${fencingToken !== null ? `#${fencingToken}` : ''}` : null;
}

function addedSummary(tasks: unknown): string {
  const keys = (Array.isArray(tasks) ? tasks : []).map((t) => text((t as { key?: unknown } | null)?.key) ?? '?');
  const shown = keys.slice(0, 5).join(', ');
  return `add ${keys.length} task(s)${keys.length ? `: ${shown}${keys.length > 5 ? ', ...' : ''}` : ''}`;
}

export function verdictOf(value: unknown): string {
  const verdict = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  if (verdict.ok === true) return verdict.idempotent ? 'ok (idempotent)' : 'ok';
  if (verdict.ok === false) return `refused: ${text(verdict.reason) ?? 'unknown'}`;
  return 'ok';
}
