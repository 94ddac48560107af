import { describe, expect, it } from 'vitest';
import { inputJsonSchema } from '../../src/mcp/tool';
import { addTasksTool, startRunTool } from '../../src/mcp/tools/controls';
import { validatePlanTool } from '../../src/mcp/tools/reads';
import { checkedResult, outputProblems, schemaProblem } from '../../src/activities/output-check';
import { ownTools } from '../../src/activities/executors/agent/own-tools';
import { answerOutput, mailEntry, outputCheck } from '../../src/activities/executors/agent/mail';
import { Transcript } from '../../src/activities/executors/agent/transcript';
import { validatePlan } from '../../src/plan/validate';
import { validateAddedTasks } from '../../src/plan/validate-added';
import {
  PLAN_TOOL_SCHEMA_BYTES,
  TASK_TOOL_SCHEMA_BYTES,
  addTasksToolSchema,
  planToolSchema,
  taskProblems,
} from '../../src/plan/task-tool';

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
const agents = {
  writer: { model: 'gpt-4o-mini', instructions: 'You write.', tools: ['teamrun__set_output'], maxTurns: 5 },
  reviewer: { model: 'gpt-4o', instructions: 'You review.', description: 'reviews drafts' },
};

describe('roles', () => {
  it("a task naming a role gets the role's fields under its own, and a spawning task every role to delegate to", () => {
    const checked = validatePlan({
      name: 'roles',
      agents,
      tasks: [
        { key: 'plan', allowSpawn: true, executor: { kind: 'agent', model: 'm', prompt: 'plan it' } },
        { key: 'draft', executor: { kind: 'agent', role: 'writer', prompt: 'write', maxTurns: 9 } },
      ],
    });
    if (!checked.ok) throw new Error(JSON.stringify(checked.problems));
    expect(checked.plan.tasks[1].executor).toEqual({
      kind: 'agent',
      role: 'writer',
      prompt: 'write',
      model: 'gpt-4o-mini',
      instructions: 'You write.',
      tools: ['teamrun__set_output'],
      maxTurns: 9,
    });
    expect(checked.plan.tasks[0].executor.delegates).toEqual(['writer', 'reviewer']);
    // The planner's tools: one typed delegate tool per role, only with allowSpawn.
    const names = (allowSpawn: boolean) =>
      ownTools(['teamrun__*'], allowSpawn, ['writer', 'reviewer']).map((t) => t.name);
    expect(names(true)).toEqual(
      expect.arrayContaining(['delegate_to_writer', 'delegate_to_reviewer', 'teamrun__add_tasks']),
    );
    expect(names(false).filter((n) => n.startsWith('delegate_to_') || n === 'teamrun__add_tasks')).toEqual([]);
  });

  it('an unknown role or delegate is a problem with a did-you-mean; an agent with neither model nor role too', () => {
    const checked = validatePlan({
      name: 'roles',
      agents,
      tasks: [
        { key: 'a', executor: { kind: 'agent', role: 'writr', prompt: 'x' } },
        { key: 'b', allowSpawn: true, executor: { kind: 'agent', model: 'm', prompt: 'x', delegates: ['reviewr'] } },
      ],
    });
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.problems).toEqual([
      expect.objectContaining({
        path: 'tasks[0].executor.role',
        code: 'unknown_role',
        message: expect.stringContaining('(did you mean "writer"?)'),
      }),
      expect.objectContaining({
        path: 'tasks[1].executor.delegates[0]',
        code: 'unknown_role',
        message: expect.stringContaining('(did you mean "reviewer"?)'),
      }),
    ]);
    const hook = validatePlan({
      name: 'h',
      agents,
      hooks: { teammateIdle: { executor: { kind: 'agent', role: 'writer', prompt: 'tidy up' } } },
      tasks: [{ key: 'a', executor: { kind: 'noop' } }],
    });
    expect(hook.ok && hook.plan.hooks?.teammateIdle?.executor).toMatchObject({ model: 'gpt-4o-mini' });
    const bare = validatePlan({ name: 'x', tasks: [{ key: 'a', executor: { kind: 'agent', prompt: 'x' } }] });
    expect(bare.ok ? [] : bare.problems.map((p) => p.path)).toEqual(['tasks[0].executor.model']);
  });

  it("tasks a run adds resolve their role against the plan's agents, with the same did-you-mean", () => {
    const checked = validatePlan({ name: 'r', agents, tasks: [{ key: 'p', executor: { kind: 'noop' } }] });
    if (!checked.ok) throw new Error('plan');
    const graph = { has: (k: string) => k === 'p', size: 1, keys: () => ['p'] };
    const task = (role: string) => ({
      key: 'w',
      dependsOn: [],
      priority: 'normal' as const,
      scope: [],
      onLeaseLost: 'retry' as const,
      executor: { kind: 'agent', role, prompt: 'x' },
    });
    const good = [task('writer')];
    expect(validateAddedTasks(good, graph, checked.plan)).toEqual([]);
    expect(good[0].executor).toMatchObject({ model: 'gpt-4o-mini', instructions: 'You write.' });
    expect(validateAddedTasks([task('writter')], graph, checked.plan)[0].message).toContain('did you mean "writer"');
  });
});

describe("a task's JSON Schema as the tools carry it", () => {
  it('is generated from the zod schemas, every kind with its fields and descriptions, within its bound', () => {
    const add = addTasksToolSchema();
    const task = (add.properties as { tasks: { items: Record<string, any> } }).tasks.items;
    const kinds = task.properties.executor.oneOf.map((e: any) => e.properties?.kind?.const).filter(Boolean);
    expect(kinds).toEqual(['shell', 'http', 'llm', 'agent', 'sleep', 'noop', 'agent-cli', 'activity', 'approval']);
    const agent = task.properties.executor.oneOf.find((e: any) => e.properties?.kind?.const === 'agent');
    expect(Object.keys(agent.properties)).toEqual(expect.arrayContaining(['role', 'prompt', 'model', 'tools']));
    expect(agent.properties.role.description).toContain('role');
    expect(task.properties.outputSchema.description).toContain('JSON Schema');
    const sizes = {
      addTasks: bytes(add),
      plan: bytes(planToolSchema()),
      mcpStartRun: bytes(inputJsonSchema(startRunTool)),
      mcpAddTasks: bytes(inputJsonSchema(addTasksTool)),
    };
    process.stderr.write(`[roles-schema] schema bytes ${JSON.stringify(sizes)}\n`);
    expect(sizes.addTasks).toBeLessThanOrEqual(TASK_TOOL_SCHEMA_BYTES);
    expect(sizes.mcpAddTasks).toBeLessThanOrEqual(TASK_TOOL_SCHEMA_BYTES + 1024);
    expect(sizes.plan).toBeLessThanOrEqual(PLAN_TOOL_SCHEMA_BYTES);
    expect(sizes.mcpStartRun).toBeLessThanOrEqual(PLAN_TOOL_SCHEMA_BYTES + 1024);
    // The MCP start_run schema resolves: its $ref points at the tool input's own $defs.
    const start = inputJsonSchema(startRunTool) as any;
    expect(start.properties.plan.properties.tasks.items).toEqual({ $ref: '#/$defs/TaskSpec' });
    // Every built-in kind (`team` included: a plan may hold team tasks) and the custom one.
    expect(start.$defs.TaskSpec.properties.executor.oneOf.length).toBe(11);
    const check = inputJsonSchema(validatePlanTool) as any;
    expect(check.properties.plan.properties.agents).toBeDefined();
    expect(Object.keys(check.properties)).toEqual(['plan', 'kinds']);
    expect(bytes(check)).toBeLessThanOrEqual(PLAN_TOOL_SCHEMA_BYTES + 1024);
  });

  it("a bad task's problems come back with their paths and a did-you-mean", () => {
    const problems = taskProblems([
      { key: 'a', executor: { kind: 'shell', comand: 'ls' } },
      { key: 'b', depends_on: ['a'], executor: { kind: 'noop' } },
    ]);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'tasks[0].executor.comand', message: expect.stringContaining('"command"') }),
        expect.objectContaining({ path: 'tasks[1].depends_on', message: expect.stringContaining('"dependsOn"') }),
      ]),
    );
    expect(taskProblems([{ key: 'ok', executor: { kind: 'noop' } }])).toEqual([]);
  });

  it('the MCP add_tasks refuses them invalid_tasks, every problem quoted, before any run is asked', async () => {
    const call = { progress: async () => undefined, signal: new AbortController().signal };
    // No client in the context: a refusal that reached for the run would fail otherwise.
    await expect(
      addTasksTool.run(
        { runId: 'r', tasks: [{ key: 'a', executor: { kind: 'shell', comand: 'ls' } }] },
        {} as never,
        call,
      ),
    ).rejects.toMatchObject({
      code: 'invalid_tasks',
      message: expect.stringContaining('tasks[0].executor.comand: unknown field (did you mean "command"?)'),
    });
  });
});

describe('outputSchema', () => {
  const schema = {
    type: 'object',
    properties: { n: { type: 'integer' } },
    required: ['n'],
    additionalProperties: false,
  };
  it('names each mismatch by its path, and fails any kind with TEAM_TASK_OUTPUT_INVALID', () => {
    expect(outputProblems(schema, { n: 1 })).toEqual([]);
    expect(outputProblems(schema, { n: 'one', m: 2 })).toEqual([
      '(output): must NOT have additional properties ("m")',
      '/n: must be integer',
    ]);
    expect(() => checkedResult(schema, { output: { stdout: 'x' } })).toThrow(
      expect.objectContaining({ type: 'TEAM_TASK_OUTPUT_INVALID', nonRetryable: true }),
    );
    expect(checkedResult(schema, { output: { n: 2 } })).toEqual({ output: { n: 2 } });
  });

  it("teamrun validate: a dependent's reference to a field its dependency's schema does not declare, and a schema that does not compile", () => {
    const plan = {
      name: 'refs',
      tasks: [
        {
          key: 'draft',
          outputSchema: { type: 'object', properties: { title: { type: 'string' } } },
          executor: { kind: 'noop' },
        },
        {
          key: 'use',
          dependsOn: ['draft'],
          executor: { kind: 'agent', model: 'm', prompt: 'Edit {{outputs.draft.titel}}; keep {{outputs.draft.title}}' },
        },
        { key: 'odd', outputSchema: { type: 'objekt' }, executor: { kind: 'noop' } },
      ],
    };
    const checked = validatePlan(plan, { outputSchemaProblem: schemaProblem });
    expect(checked.ok ? [] : checked.problems).toEqual([
      expect.objectContaining({
        path: 'tasks[1].executor',
        code: 'unknown_output_field',
        message: expect.stringContaining('declares no field "titel" (did you mean "title"?)'),
      }),
      expect.objectContaining({ path: 'tasks[2].outputSchema', code: 'invalid_output_schema' }),
    ]);
  });

  it('is bounded in a plan', () => {
    const big = { description: 'x'.repeat(17 * 1024) };
    const checked = validatePlan({ name: 'o', tasks: [{ key: 'a', outputSchema: big, executor: { kind: 'noop' } }] });
    expect(checked.ok ? [] : checked.problems.map((p) => p.path)).toEqual(['tasks[0].outputSchema']);
  });
});

describe('mail joining a working agent', () => {
  it('joins only what the conversation does not hold yet: a retry handed the same mail joins none of it twice', () => {
    const message = (id: number) => ({ id, from: 'review', to: 'w', subject: null, body: `note ${id}`, at: 0 });
    const transcript = new Transcript([
      { kind: 'start', messages: [{ role: 'user', content: 'go' }] },
      { kind: 'inbox', content: 'Messages from your team:\n- from review: note 2', upTo: 2 },
    ]);
    expect(transcript.mailUpTo).toBe(2);
    expect(mailEntry([message(1), message(2)], transcript, (t) => t)).toBeUndefined();
    expect(mailEntry([message(2), message(3)], transcript, (t) => t)).toEqual({
      kind: 'inbox',
      content: 'Messages from your team:\n- from review: note 3',
      upTo: 3,
    });
  });

  it('an answer sent back for its outputSchema reopens the conversation, and counts toward the bound', () => {
    const transcript = new Transcript([
      { kind: 'start', messages: [{ role: 'user', content: 'go' }] },
      { kind: 'model', turn: 1, message: { role: 'assistant', content: 'prose' } },
    ]);
    const schema = { type: 'object', required: ['n'] };
    const fix = outputCheck(answerOutput(transcript, 'prose', schema), transcript, schema);
    expect(fix).toMatchObject({ kind: 'inbox', check: 'output' });
    transcript.add(fix!);
    expect(transcript.finalAnswer).toBeUndefined();
    expect(transcript.outputFixes).toBe(1);
    transcript.add({ kind: 'model', turn: 2, message: { role: 'assistant', content: '```json\n{"n":1}\n```' } });
    expect(answerOutput(transcript, transcript.finalAnswer!.content!, schema)).toEqual({ n: 1 });
  });
});
