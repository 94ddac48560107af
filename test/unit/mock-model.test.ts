import { describe, expect, it } from 'vitest';
import { MOCK_TAG, mockAnswer, type MockMessage } from '../../src/devserver/mock-script';

const system = (content: string): MockMessage => ({ role: 'system', content });
const user = (content: string): MockMessage => ({ role: 'user', content });
const called = (id: string, name: string, args: unknown, result: string): MockMessage[] => [
  { role: 'assistant', content: null, tool_calls: [{ id, function: { name, arguments: JSON.stringify(args) } }] },
  { role: 'tool', tool_call_id: id, content: result },
];

describe("the mock model's script", () => {
  it('a planner adds one agent task per key its instructions name, with the tools they name, then answers', () => {
    const messages = [
      system('You plan. Add tasks (keys worker-1, worker-2; model gpt-4o-mini, tools [teamrun__read_inbox, x__y]).'),
      user('Write a guide.'),
    ];
    const first = mockAnswer({ model: 'gpt-4o-mini', messages, tools: ['teamrun__add_tasks'] });
    expect(first.toolCalls).toHaveLength(1);
    const { name, arguments: args } = first.toolCalls[0];
    expect(name).toBe('teamrun__add_tasks');
    const tasks = (args as { tasks: Array<{ key: string; executor: { model: string; tools: string[] } }> }).tasks;
    expect(tasks.map((t) => t.key)).toEqual(['worker-1', 'worker-2']);
    expect(tasks[0].executor).toMatchObject({
      kind: 'agent',
      model: 'gpt-4o-mini',
      tools: ['teamrun__read_inbox', 'x__y'],
    });
    const after = [...messages, ...called('c1', 'teamrun__add_tasks', args, '{"ok":true}')];
    const last = mockAnswer({ model: 'gpt-4o-mini', messages: after, tools: ['teamrun__add_tasks'] });
    expect(last.toolCalls).toEqual([]);
    expect(last.content).toBe(`${MOCK_TAG} Plan: worker-1, worker-2 each write one part of Write a guide..`);
  });

  it('a refusal goes into the answer, not a claim that it worked', () => {
    const messages = [
      system('Send worker-1 advice.'),
      user('x'),
      ...called('c1', 'teamrun__send_message', {}, 'error: unknown task "worker-1"'),
    ];
    const answer = mockAnswer({ model: 'm', messages, tools: ['teamrun__send_message'] });
    expect(answer.content).toContain('not delivered: error: unknown task "worker-1"');
  });

  it('a worker writes its file in the directory the filesystem server allows, sets its output, then answers', () => {
    const tools = ['fs__list_allowed_directories', 'fs__write_file', 'teamrun__set_output'];
    let messages: MockMessage[] = [system('You are writer-2.'), user('writer-2: part 2 of 2 of: a guide')];
    const steps: string[] = [];
    for (let i = 0; i < 5; i++) {
      const answer = mockAnswer({ model: 'mock', messages, tools });
      if (!answer.toolCalls.length) {
        steps.push(answer.content!);
        break;
      }
      const [c] = answer.toolCalls;
      steps.push(`${c.name} ${JSON.stringify(c.arguments)}`);
      const result = c.name === 'fs__list_allowed_directories' ? 'Allowed directories:\n/srv/work' : 'ok';
      messages = [...messages, ...called(`c${i}`, c.name, c.arguments, result)];
    }
    expect(steps[0]).toBe('fs__list_allowed_directories {}');
    expect(steps[1]).toMatch(/^fs__write_file \{"path":"\/srv\/work\/writer-2\.md","content":"\[mock model\] /);
    expect(steps[2]).toMatch(/^teamrun__set_output \{"output":\{"content":"\[mock model\] .*"mock":true\}\}$/);
    expect(steps[3]).toMatch(/^\[mock model\] Done: /);
  });
});
