import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPlanFile } from '../../src/plan/load';
import { startOpenAiServer, type OpenAiServer, type RecordedRequest } from '../helpers/openai-server';
import { startRun, testConfig } from '../helpers/env';
import { workerForTest } from '../helpers/scenario';

const root = path.resolve(__dirname, '../..');
const KEY_ENV = 'TEAMRUN_TEST_AGENT_KEY';
const usage = { promptTokens: 50, completionTokens: 10 };
const TITLE_SCHEMA = {
  type: 'object',
  properties: { title: { type: 'string' } },
  required: ['title'],
  additionalProperties: false,
};
const NOTES_SCHEMA = {
  type: 'object',
  properties: { notes: { type: 'array', items: { type: 'string' }, minItems: 1 } },
  required: ['notes'],
};

/** A promise and the function that settles it. */
function signal(): { seen: Promise<void>; fire: () => void } {
  let fire!: () => void;
  const seen = new Promise<void>((resolve) => (fire = resolve));
  return { seen, fire };
}

describe("the trial's agent team written with roles and delegation, on the local model server", () => {
  let server: OpenAiServer;
  beforeAll(async () => {
    server = await startOpenAiServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('the planner delegates to two roles through typed tools; the reviewer mails a working writer, who reads it at its next call; a mismatched output is fixed on the second try', async ({
    onTestFinished,
  }) => {
    const writerStarted = signal();
    const reviewSent = signal();
    const role = (r: RecordedRequest) => (r.messages[0]?.role === 'system' ? (r.messages[0].content ?? '') : '');
    server.script('gpt-4o-mini', (r) => {
      const system = role(r);
      if (system.startsWith('You plan'))
        return r.turn === 1
          ? {
              usage,
              toolCalls: [
                // A misspelt field: refused as the tool's error, with a did-you-mean, and nothing added.
                {
                  name: 'teamrun__add_tasks',
                  arguments: { tasks: [{ key: 'x', executor: { kind: 'shell', comand: 'ls' } }] },
                },
                {
                  name: 'delegate_to_writer',
                  arguments: { key: 'part-1', prompt: 'Write part one', outputSchema: TITLE_SCHEMA },
                },
                {
                  name: 'delegate_to_researcher',
                  arguments: { key: 'part-2', prompt: 'Research part two', outputSchema: NOTES_SCHEMA },
                },
              ],
            }
          : { usage, content: 'two parts given out' };
      if (system.startsWith('You review')) {
        // The review waits for the writer to be at work, then mails it.
        if (r.turn === 1)
          return {
            usage,
            until: writerStarted.seen,
            toolCalls: [{ name: 'teamrun__send_message', arguments: { to: 'part-1', body: 'cite the contract' } }],
          };
        reviewSent.fire();
        return { usage, content: 'reviewed' };
      }
      if (system.startsWith('You write')) {
        // Turn 1 answers once the review's message is sent: with an output that does not match its schema.
        if (r.turn === 1) {
          writerStarted.fire();
          return {
            usage,
            until: reviewSent.seen,
            toolCalls: [{ name: 'teamrun__set_output', arguments: { output: { title: 5 } } }],
          };
        }
        if (r.turn === 2)
          return {
            usage,
            toolCalls: [
              { name: 'teamrun__set_output', arguments: { output: { title: 'Part one, per the contract' } } },
            ],
          };
        return { usage, content: 'written' };
      }
      if (system.startsWith('You research'))
        // The first answer is prose, not the JSON its schema asks for; the second is.
        return r.turn === 1
          ? { usage, content: 'Some notes.' }
          : { usage, content: '```json\n{"notes":["durable"]}\n```' };
      throw new Error(`no script for "${system}"`);
    });
    const worker = await workerForTest(
      { config: testConfig({ llm: { baseUrl: server.baseUrl, apiKeyEnv: KEY_ENV } }), env: { [KEY_ENV]: 'sk-roles' } },
      onTestFinished,
    );
    const loaded = loadPlanFile(path.join(root, 'examples/agent-roles.yaml'));
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems));
    const handle = await startRun({ ...loaded.plan, lease: { ttlMs: 10_000 } }, worker.taskQueue);
    const result = await handle.result();
    const ours = (system: string) =>
      server.requests.filter(
        (r) => r.idempotencyKey?.startsWith(`${handle.workflowId}/`) && role(r).startsWith(system),
      );

    expect(result.status).toBe('succeeded');
    const tasks = Object.fromEntries(result.tasks.map((t) => [t.key, t]));
    expect(Object.keys(tasks).sort()).toEqual(['part-1', 'part-2', 'plan', 'review']);
    // The planner was offered one typed tool per role it may delegate to (not the reviewer's), and add_tasks.
    const offered = ours('You plan')[0].tools;
    expect(offered).toEqual(expect.arrayContaining(['delegate_to_writer', 'delegate_to_researcher']));
    expect(offered).not.toContain('delegate_to_reviewer');
    const planned = ours('You plan')[1]
      .messages.filter((m) => m.role === 'tool')
      .map((m) => m.content);
    expect(planned[0]).toContain('tasks[0].executor.comand: unknown field (did you mean "command"?)');
    expect(planned.slice(1).map((c) => JSON.parse(c ?? '{}'))).toEqual([
      { ok: true, added: ['part-1'] },
      { ok: true, added: ['part-2'] },
    ]);
    // Each delegated task runs as its role: the role's instructions and model, the planner's prompt.
    expect(ours('You write')[0].messages.map((m) => m.content)).toEqual([
      'You write one part of a note. Set your output with teamrun__set_output.',
      'Write part one',
    ]);
    expect(ours('You research')[0].model).toBe('gpt-4o-mini');
    const { events } = await handle.events({ limit: 1_000 });
    // One addTasks per delegate call, each under the planner's name (its attempt's proof, as add_tasks).
    const added = events.filter((e) => e.type === 'task:added');
    expect(added.map((e) => [e.keys, e.parent]).sort()).toEqual([
      [['part-1'], 'plan'],
      [['part-2'], 'plan'],
    ]);

    // The reviewer's message reached the writer while it worked: in the conversation of its next model call.
    const writer = ours('You write');
    expect(writer.map((r) => r.turn)).toEqual([1, 2, 3]);
    const mailAt = (r: RecordedRequest) =>
      r.messages.some((m) => m.role === 'user' && (m.content ?? '').includes('- from review: cite the contract'));
    expect(writer.map(mailAt)).toEqual([false, true, true]);
    // Once: the mail joined one time, though the writer made two more calls.
    expect(writer[2].messages.filter((m) => (m.content ?? '').includes('cite the contract')).length).toBe(1);

    // outputSchema: set_output's mismatch came back as the tool's error; the second value matched.
    const toolErrors = writer[1].messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(toolErrors).toEqual([
      expect.stringContaining("does not match the task's outputSchema: /title: must be string"),
    ]);
    expect(tasks['part-1'].output).toEqual({ title: 'Part one, per the contract' });
    // The final answer's mismatch went back to the model, which answered the JSON on its second try.
    const research = ours('You research');
    expect(research.map((r) => r.turn)).toEqual([1, 2]);
    expect(research[1].messages.at(-1)?.content).toContain('Your output does not match the output schema');
    expect(tasks['part-2'].output).toEqual({ notes: ['durable'] });
    expect(tasks['part-2'].attempts).toBe(1);
  });
  it('an output that does not match its outputSchema fails the task once, not retried: a shell task at once, an agent after two answers sent back', async ({
    onTestFinished,
  }) => {
    server.script('stubborn-model', () => ({ usage, content: 'prose, not JSON' }));
    const worker = await workerForTest(
      { config: testConfig({ llm: { baseUrl: server.baseUrl, apiKeyEnv: KEY_ENV } }), env: { [KEY_ENV]: 'sk-roles' } },
      onTestFinished,
    );
    const handle = await startRun(
      {
        name: 'output-invalid',
        retry: { maxAttempts: 3, backoffMs: 100 },
        tasks: [
          {
            key: 'count',
            outputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
            executor: { kind: 'shell', command: `echo '::teamrun-output::{"n":"three"}'` },
          },
          {
            key: 'notes',
            outputSchema: NOTES_SCHEMA,
            executor: { kind: 'agent', model: 'stubborn-model', prompt: 'Notes, as JSON' },
          },
        ],
      },
      worker.taskQueue,
    );
    const result = await handle.result();
    expect(result.status).toBe('failed');
    const tasks = Object.fromEntries(result.tasks.map((t) => [t.key, t]));
    expect(tasks.count).toMatchObject({ status: 'failed', attempts: 1 });
    expect(tasks.count.lastError).toContain("the output does not match the task's outputSchema: /n: must be integer");
    expect(tasks.notes).toMatchObject({ status: 'failed', attempts: 1 });
    expect(tasks.notes.lastError).toContain("does not match the task's outputSchema after 2 fixes");
    // The model was asked three times: its answer, then twice again with the problems.
    const asked = server.requests.filter((r) => r.idempotencyKey?.startsWith(`${handle.workflowId}/notes/`));
    expect(asked.map((r) => r.turn)).toEqual([1, 2, 3]);
    expect(asked[2].messages.filter((m) => (m.content ?? '').startsWith('Your output does not match')).length).toBe(2);
  });
});
