/**
 * An agent task's transcript as `teamrun logs RUN KEY` prints it, read from the task's journal
 * (src/agent). Redacted when journaled: the worker's secrets never reached it.
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
