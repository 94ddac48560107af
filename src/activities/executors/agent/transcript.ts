/**
 * The journal's entries as the conversation the model is sent, and what the loop reads from them:
 * how many model calls were answered, which tool calls of the last answer have no result yet,
 * what `teamrun__set_output` set, and whether the agent already gave its final answer.
 */
import type { AssistantMessage, JournalEntry, ToolCall } from '../../../agent/types';

export class Transcript {
  /** Model calls answered, by every attempt. */
  turns = 0;
  /** Tool calls run (with a result), by every attempt. */
  toolCalls = 0;
  /** The last value `teamrun__set_output` set, if any. */
  output: { value: unknown } | undefined;
  /** The last mail message id the conversation holds (0: none). */
  mailUpTo = 0;
  /** Answers sent back to the model because they did not match the task's outputSchema. */
  outputFixes = 0;
  private lastModel: AssistantMessage | undefined;
  /** The last answer was sent back (outputSchema): it ends nothing, the model answers again. */
  private reopened = false;
  private readonly started = new Set<string>();
  private readonly finished = new Set<string>();
  readonly entries: JournalEntry[] = [];

  constructor(entries: JournalEntry[]) {
    for (const entry of entries) this.add(entry);
  }

  add(entry: JournalEntry): void {
    this.entries.push(entry);
    if (entry.kind === 'inbox') {
      this.mailUpTo = Math.max(this.mailUpTo, entry.upTo ?? 0);
      if (entry.check === 'output') {
        this.outputFixes++;
        this.reopened = true;
      }
    } else if (entry.kind === 'model') {
      this.reopened = false;
      this.turns = entry.turn;
      this.lastModel = entry.message;
      this.started.clear();
      this.finished.clear();
    } else if (entry.kind === 'tool-start') {
      this.started.add(entry.id);
    } else if (entry.kind === 'tool-result') {
      this.finished.add(entry.id);
      this.toolCalls++;
      if (entry.ok && entry.name === 'teamrun__set_output') {
        const call = this.lastModel?.tool_calls?.find((c) => c.id === entry.id);
        this.output = { value: parseArgs(call?.function.arguments).output };
      }
    }
  }

  /** The answer that ended the loop: the last model call asked for no tool. */
  get finalAnswer(): AssistantMessage | undefined {
    return this.lastModel && !this.reopened && !this.lastModel.tool_calls?.length ? this.lastModel : undefined;
  }

  /** The last answer's tool calls still without a result, each with whether one had begun (a crash cut it). */
  pendingCalls(): Array<{ call: ToolCall; begun: boolean }> {
    return (this.lastModel?.tool_calls ?? [])
      .filter((call) => !this.finished.has(call.id))
      .map((call) => ({ call, begun: this.started.has(call.id) }));
  }

  /** The conversation in OpenAI's shape. */
  messages(): unknown[] {
    const out: unknown[] = [];
    for (const entry of this.entries) {
      switch (entry.kind) {
        case 'start':
          out.push(...entry.messages);
          break;
        case 'inbox':
          out.push({ role: 'user', content: entry.content });
          break;
        case 'steer':
          out.push({ role: 'user', content: `Guidance from ${entry.actor ?? 'an operator'}: ${entry.text}` });
          break;
        case 'model':
          out.push(entry.message);
          break;
        case 'tool-result':
          out.push({ role: 'tool', tool_call_id: entry.id, content: entry.content });
          break;
        case 'tool-start':
          break;
      }
    }
    return out;
  }
}

/** A call's arguments as an object; anything else (not JSON, not an object) is `{}`. */
export function parseArgs(text: string | undefined): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text ?? '');
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
