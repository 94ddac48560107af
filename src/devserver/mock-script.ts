/**
 * The mock model's script: what it answers to one chat completion request, from the conversation
 * and the tools offered. No model, no randomness: it reads the instructions and the tools the way
 * a careful model would for teamrun's own plans, so a planner adds tasks, a worker writes its part
 * (through the MCP filesystem server when it has one) and sets its output, a reviewer messages a
 * worker. Every text it writes starts with MOCK_TAG, so nobody mistakes its answers for a model's.
 */

export const MOCK_TAG = '[mock model]';
/** The `model` every answer names, whatever the request asked for. */
export const MOCK_MODEL_NAME = 'teamrun-mock';

export interface MockMessage {
  role: string;
  content?: string | null;
  tool_calls?: Array<{ id?: string; function?: { name?: string; arguments?: string } }>;
  tool_call_id?: string;
}

export interface MockRequest {
  model: string;
  messages: MockMessage[];
  tools: string[];
}

export interface MockAnswer {
  content: string | null;
  toolCalls: Array<{ name: string; arguments: Record<string, unknown> }>;
}

const KEY = /\b[a-z][a-z0-9]*(?:-[a-z0-9]+)*-\d+\b/g;
const MAX_TEXT = 4_000;

function textOf(messages: MockMessage[], role: string): string {
  return messages
    .filter((m) => m.role === role && typeof m.content === 'string')
    .map((m) => m.content!)
    .join('\n')
    .slice(0, MAX_TEXT);
}

/** Names of the tools this conversation already called, and each call's result, in order. */
function calls(messages: MockMessage[]): Array<{ name: string; result: string }> {
  const results = new Map(messages.filter((m) => m.role === 'tool').map((m) => [m.tool_call_id, m.content ?? '']));
  return messages.flatMap((m) =>
    (m.tool_calls ?? []).map((c) => ({ name: c.function?.name ?? '', result: results.get(c.id) ?? '' })),
  );
}

function distinct<T>(items: T[]): T[] {
  return [...new Set(items)];
}

/** The task keys the instructions name (`worker-1, worker-2`), else two of its own. */
function keysIn(text: string): string[] {
  const found = distinct(text.match(KEY) ?? []);
  return found.length ? found.slice(0, 4) : ['part-1', 'part-2'];
}

/** The tools the instructions say the new tasks get (`tools [a, b]`), else reading mail and setting output. */
function toolsIn(text: string): string[] {
  const listed = /tools\s*\[([^\]]{1,400})\]/i.exec(text)?.[1];
  const names = listed?.split(',').map((t) => t.trim().replace(/^["'`]|["'`]$/g, '')) ?? [];
  const valid = names.filter((n) => /^[A-Za-z0-9_-]{1,64}$/.test(n));
  return valid.length ? valid : ['teamrun__read_inbox', 'teamrun__set_output'];
}

function sentence(text: string, max = 160): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** The planner: one agent task per key, each told its part of the job. */
function planTasks(request: MockRequest, system: string, prompt: string) {
  const keys = keysIn(system);
  const tools = toolsIn(system);
  return keys.map((key, i) => ({
    key,
    title: `Part ${i + 1} of ${keys.length}`,
    executor: {
      kind: 'agent',
      model: request.model,
      instructions:
        `You are ${key}. You write part ${i + 1} of ${keys.length} of the job, ` +
        'then set your output with teamrun__set_output and answer with one line.',
      prompt: `${key}: part ${i + 1} of ${keys.length} of: ${sentence(prompt, 400)}`,
      tools,
      maxTurns: 6,
    },
  }));
}

/** A file name for what this worker writes, from its key when the prompt names one. */
function fileName(prompt: string): string {
  return `${prompt.match(KEY)?.[0] ?? 'notes'}.md`;
}

/** The directory the filesystem server allows, from its `list_allowed_directories` answer. */
function allowedDirectory(result: string): string | null {
  const lines = result.split('\n').map((l) => l.trim());
  return lines.find((l) => l.startsWith('/') || /^[A-Za-z]:\\/.test(l)) ?? null;
}

/** What the mock answers to `request`: the next tool call its role needs, or its final answer. */
export function mockAnswer(request: MockRequest): MockAnswer {
  const system = textOf(request.messages, 'system');
  const prompt = textOf(request.messages, 'user');
  const done = calls(request.messages);
  const called = (name: string) => done.some((c) => c.name === name);
  const offered = (name: string) => request.tools.includes(name);
  const call = (name: string, args: Record<string, unknown>): MockAnswer => ({
    content: null,
    toolCalls: [{ name, arguments: args }],
  });
  const topic = sentence(prompt.replace(KEY, '').replace(/^[:\s]+/, ''), 120) || 'the task';

  // A planner: adds the work, or hands it to the roles it may delegate to.
  const delegates = request.tools.filter((t) => t.startsWith('delegate_to_'));
  if (delegates.length && !delegates.some(called)) {
    const keys = keysIn(system);
    return {
      content: null,
      toolCalls: delegates.slice(0, keys.length).map((name, i) => ({
        name,
        arguments: { key: keys[i], prompt: `${keys[i]}: part ${i + 1} of ${keys.length} of: ${topic}` },
      })),
    };
  }
  if (offered('teamrun__add_tasks') && !called('teamrun__add_tasks')) {
    return call('teamrun__add_tasks', { tasks: planTasks(request, system, prompt) });
  }
  // A reviewer: one piece of advice to the worker its instructions name.
  if (offered('teamrun__send_message') && !called('teamrun__send_message')) {
    const to = (system.match(KEY) ?? prompt.match(KEY))?.[0];
    if (to) {
      return call('teamrun__send_message', {
        to,
        subject: 'review',
        body: `${MOCK_TAG} Advice for ${to}: open with one example, then say what can go wrong.`,
      });
    }
  }
  // A worker: writes its part where the filesystem server allows, then sets its output.
  const part = `${MOCK_TAG} ${topic}: a short, scripted draft (no real model wrote this).`;
  if (offered('fs__write_file') && !called('fs__write_file')) {
    if (offered('fs__list_allowed_directories') && !called('fs__list_allowed_directories')) {
      return call('fs__list_allowed_directories', {});
    }
    const listed = done.find((c) => c.name === 'fs__list_allowed_directories')?.result ?? '';
    const dir = allowedDirectory(listed);
    const file = dir ? `${dir.replace(/[\\/]+$/, '')}/${fileName(prompt)}` : fileName(prompt);
    return call('fs__write_file', { path: file, content: `${part}\n` });
  }
  if (offered('teamrun__set_output') && !called('teamrun__set_output')) {
    return call('teamrun__set_output', { output: { content: part, mock: true } });
  }
  return { content: finalAnswer(done, topic, keysIn(system)), toolCalls: [] };
}

function finalAnswer(done: Array<{ name: string; result: string }>, topic: string, keys: string[]): string {
  const added = done.filter((c) => c.name === 'teamrun__add_tasks' || c.name.startsWith('delegate_to_'));
  if (added.length) {
    const refused = added.find((c) => /^error/i.test(c.result));
    if (refused) return `${MOCK_TAG} The run refused the plan: ${sentence(refused.result, 200)}`;
    return `${MOCK_TAG} Plan: ${keys.join(', ')} each write one part of ${topic}.`;
  }
  const sent = done.find((c) => c.name === 'teamrun__send_message');
  if (sent && /^error/i.test(sent.result))
    return `${MOCK_TAG} Review done; the advice was not delivered: ${sentence(sent.result, 160)}`;
  if (sent) return `${MOCK_TAG} Review done: advice sent (${sentence(sent.result, 120)}).`;
  return `${MOCK_TAG} Done: ${topic}.`;
}
