/**
 * The conversation as the transcript holds it (OpenAI-shaped messages: the journal's format since it began) in the
 * AI SDK's provider prompt, which each provider's package writes in its own wire format.
 */
import type { LanguageModelV3FunctionTool, LanguageModelV3Message, LanguageModelV3Prompt } from '@ai-sdk/provider';
import type { ToolCall } from '../../../agent/types';
import { parseArgs } from '../agent/transcript';

type Held =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export function toPrompt(messages: unknown[]): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Message[] = [];
  // A tool result names its call's tool: Gemini answers a function call by name.
  const toolNames = new Map<string, string>();
  for (const message of messages as Held[]) {
    switch (message.role) {
      case 'system':
        prompt.push({ role: 'system', content: message.content });
        break;
      case 'user':
        prompt.push({ role: 'user', content: [{ type: 'text', text: message.content }] });
        break;
      case 'assistant': {
        const calls = message.tool_calls ?? [];
        for (const call of calls) toolNames.set(call.id, call.function.name);
        prompt.push({
          role: 'assistant',
          content: [
            ...(message.content ? [{ type: 'text' as const, text: message.content }] : []),
            ...calls.map((call) => ({
              type: 'tool-call' as const,
              toolCallId: call.id,
              toolName: call.function.name,
              input: parseArgs(call.function.arguments),
            })),
          ],
        });
        break;
      }
      case 'tool': {
        const part = {
          type: 'tool-result' as const,
          toolCallId: message.tool_call_id,
          toolName: toolNames.get(message.tool_call_id) ?? 'tool',
          output: { type: 'text' as const, value: message.content },
        };
        // The results of one answer's calls travel together (Anthropic wants them in one user turn).
        const last = prompt.at(-1);
        if (last?.role === 'tool') last.content.push(part);
        else prompt.push({ role: 'tool', content: [part] });
        break;
      }
    }
  }
  return prompt;
}

export function toTools(
  tools: Iterable<{ name: string; description?: string; parameters: object }>,
): LanguageModelV3FunctionTool[] {
  return [...tools].map((t) => ({
    type: 'function',
    name: t.name,
    ...(t.description ? { description: t.description } : {}),
    inputSchema: t.parameters as LanguageModelV3FunctionTool['inputSchema'],
  }));
}
