/**
 * An agent task's transcript as `teamrun logs RUN KEY` prints it and the MCP `task_log` tool pages
 * it, read from the task's journal (src/agent). Redacted when journaled: the worker's secrets and
 * the model key never reached it.
 */
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { transcriptQuery } from '../agent/messages';
import { journalId, type JournalEntry, type JournalSnapshot } from '../agent/types';

/** The journal of `key`, or null when the task has none (not an agent, or never started). */
export async function readTranscript(client: Client, workflowId: string, key: string): Promise<JournalSnapshot | null> {
  try {
    return await client.workflow.getHandle(journalId(workflowId, key)).query(transcriptQuery);
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return null;
    throw err;
  }
}

/** One line or block per step: model, tool and system steps told apart by their tag. */
export function renderTranscript(journal: JournalSnapshot): string {
  const lines = [
    `transcript (journal ${journalId(journal.runWorkflowId, journal.key)}, token ${journal.fencingToken}):`,
  ];
  for (const entry of journal.entries) lines.push(renderEntry(entry));
  if (journal.pending.length) lines.push(`[steer] ${journal.pending.length} waiting for the next model call`);
  return lines.join('\n');
}

export function renderEntry(entry: JournalEntry): string {
  switch (entry.kind) {
    case 'start':
      return entry.messages.map((m) => `[${m.role}] ${m.content}`).join('\n');
    case 'inbox':
      return `[inbox] ${entry.content}`;
    case 'steer':
      return `[steer, turn ${entry.turn}] ${entry.actor ?? 'an operator'}: ${entry.text}`;
    case 'model': {
      const calls = (entry.message.tool_calls ?? []).map((c) => `${c.function.name}(${c.function.arguments})`);
      const tokens = entry.usage ? ` (${entry.usage.inputTokens ?? 0} in, ${entry.usage.outputTokens ?? 0} out)` : '';
      return [
        `[model, turn ${entry.turn}]${tokens} ${entry.message.content ?? ''}`.trimEnd(),
        ...calls.map((c) => `  -> ${c}`),
      ].join('\n');
    }
    case 'tool-start':
      return `[tool, turn ${entry.turn}] ${entry.name} started`;
    case 'tool-result': {
      const how = entry.ok ? 'ok' : 'failed';
      return `[tool, turn ${entry.turn}] ${entry.name} ${how} (${entry.ms} ms): ${entry.content}`;
    }
  }
}

/** A page of a transcript for a reader with a bounded context (a coordinating model): steps and bytes bounded. */
export const TRANSCRIPT_PAGE = { default: 50, max: 200, stepChars: 4_000, pageChars: 64 * 1024 } as const;

export interface TranscriptPage {
  journal: string;
  /** Steps in the whole transcript; this page holds `steps[0].index` onwards. */
  total: number;
  steps: Array<{ index: number; kind: JournalEntry['kind']; turn: number | null; text: string; cut?: true }>;
  /** Where the next page starts (the `transcriptCursor` to pass back), null at the end. */
  nextCursor: string | null;
  /** Guidance queued for the agent's next model call. */
  pendingSteers: number;
}

/** Steps `from` onwards, each as `teamrun logs` prints it, cut past `stepChars`, the page past `pageChars`. */
export function transcriptPage(journal: JournalSnapshot, from: number, limit: number): TranscriptPage {
  const steps: TranscriptPage['steps'] = [];
  let chars = 0;
  let next = from;
  for (; next < journal.entries.length && steps.length < limit; next += 1) {
    const entry = journal.entries[next];
    const full = renderEntry(entry);
    const text = full.length > TRANSCRIPT_PAGE.stepChars ? `${full.slice(0, TRANSCRIPT_PAGE.stepChars - 1)}…` : full;
    if (steps.length && chars + text.length > TRANSCRIPT_PAGE.pageChars) break;
    chars += text.length;
    const turn = 'turn' in entry ? entry.turn : null;
    steps.push({ index: next, kind: entry.kind, turn, text, ...(text !== full ? { cut: true as const } : {}) });
  }
  return {
    journal: journalId(journal.runWorkflowId, journal.key),
    total: journal.entries.length,
    steps,
    nextCursor: next < journal.entries.length ? String(next) : null,
    pendingSteers: journal.pending.length,
  };
}
