/**
 * The agent's record in a report: per agent task, what it said each turn, each tool call with its arguments and
 * result, and each turn's tokens and cost. Read from the task's journal (src/agent), where the worker wrote it
 * redacted: a closed journal's result holds its transcript (no worker needed), an open one answers its query.
 * Every piece is bounded here, so a long transcript makes a long page, never an unbounded one.
 */
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { transcriptQuery } from '../agent/messages';
import { journalId, type JournalEntry, type JournalSnapshot } from '../agent/types';
import type { Usage } from '../plan/schema';

export const AGENT_RECORD_LIMITS = {
  /** Agent tasks a report reads the journal of. */
  tasks: 100,
  /** Items (turns, steers, the prompt) shown per task; the rest are counted. */
  items: 400,
  textChars: 8_000,
  argsChars: 2_000,
  resultChars: 4_000,
} as const;

export interface AgentToolCall {
  name: string;
  args: string;
  /** Null while no result was journaled (the call was in flight when the attempt ended). */
  result: { ok: boolean; ms: number; content: string } | null;
}

export type AgentRecordItem =
  | { kind: 'prompt'; role: string; text: string }
  | { kind: 'steer'; turn: number; actor: string | null; text: string }
  | {
      kind: 'turn';
      turn: number;
      text: string;
      toolCalls: AgentToolCall[];
      inputTokens: number;
      outputTokens: number;
      /** Null when the usage has no price (neither in the record nor in the report's price table). */
      costUsd: number | null;
    };

export interface AgentRecord {
  key: string;
  items: AgentRecordItem[];
  /** Items past AGENT_RECORD_LIMITS.items, left out. */
  omitted: number;
}

/** Prices a usage record by the reader's price table (the report's caller knows it). */
export type PriceOf = (usage: Usage) => number | undefined;

/** The records of agent tasks `keys` (those with agent steps), in order; a task without a journal is left out. */
export async function loadAgentRecords(
  client: Client,
  workflowId: string,
  keys: string[],
  price: PriceOf = () => undefined,
): Promise<{ records: AgentRecord[]; notes: string[] }> {
  const records: AgentRecord[] = [];
  const notes: string[] = [];
  for (const key of keys.slice(0, AGENT_RECORD_LIMITS.tasks)) {
    const journal = await readJournal(client, journalId(workflowId, key)).catch((err: unknown) => {
      notes.push(`the transcript of agent task "${key}" could not be read: ${(err as Error).message.slice(0, 200)}`);
      return null;
    });
    if (journal) records.push(agentRecord(journal, price));
  }
  if (keys.length > AGENT_RECORD_LIMITS.tasks)
    notes.push(`${keys.length - AGENT_RECORD_LIMITS.tasks} agent tasks past the first 100: their transcripts left out`);
  return { records, notes };
}

async function readJournal(client: Client, id: string): Promise<JournalSnapshot | null> {
  const handle = client.workflow.getHandle(id);
  try {
    const { status } = await handle.describe();
    if (status.name === 'COMPLETED') return (await handle.result()) as JournalSnapshot;
    return await handle.query(transcriptQuery);
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return null;
    throw err;
  }
}

/** A journal's entries as the report shows them: turns with their tool calls and results, steers and the prompt. */
export function agentRecord(journal: JournalSnapshot, price: PriceOf): AgentRecord {
  const items: AgentRecordItem[] = [];
  const calls = new Map<string, AgentToolCall>();
  for (const entry of journal.entries) {
    const item = itemOf(entry, calls, price);
    if (item) items.push(...item);
  }
  const shown = items.slice(0, AGENT_RECORD_LIMITS.items);
  return { key: journal.key, items: shown, omitted: items.length - shown.length };
}

function itemOf(entry: JournalEntry, calls: Map<string, AgentToolCall>, price: PriceOf): AgentRecordItem[] | null {
  switch (entry.kind) {
    case 'start':
      return entry.messages.map((m) => ({ kind: 'prompt', role: m.role, text: cut(m.content, 'textChars') }));
    case 'inbox':
      return [{ kind: 'prompt', role: 'inbox', text: cut(entry.content, 'textChars') }];
    case 'steer':
      return [{ kind: 'steer', turn: entry.turn, actor: entry.actor, text: cut(entry.text, 'textChars') }];
    case 'model': {
      const toolCalls = (entry.message.tool_calls ?? []).map((c) => {
        const call: AgentToolCall = {
          name: c.function.name,
          args: cut(c.function.arguments, 'argsChars'),
          result: null,
        };
        calls.set(c.id, call);
        return call;
      });
      const usage = entry.usage;
      const cost = usage ? (usage.costUsd ?? price(usage)) : undefined;
      return [
        {
          kind: 'turn',
          turn: entry.turn,
          text: cut(entry.message.content ?? '', 'textChars'),
          toolCalls,
          inputTokens: (usage?.inputTokens ?? 0) + (usage?.cacheTokens ?? 0),
          outputTokens: usage?.outputTokens ?? 0,
          costUsd: cost ?? null,
        },
      ];
    }
    case 'tool-start':
      return null;
    case 'tool-result': {
      const call = calls.get(entry.id);
      if (call) call.result = { ok: entry.ok, ms: entry.ms, content: cut(entry.content, 'resultChars') };
      return null;
    }
  }
}

function cut(text: string, limit: 'textChars' | 'argsChars' | 'resultChars'): string {
  const max = AGENT_RECORD_LIMITS[limit];
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
}
