import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockModel, type MockModelServer } from '../../src/devserver/mock-model';
import { loadRunReport, renderReportHtml, renderReportText } from '../../src/report';
import { startRun, testClient, testConfig } from '../helpers/env';
import { mcpStdioClient } from '../helpers/mcp-client';
import { workerForTest } from '../helpers/scenario';

/**
 * The scripted mock model `teamrun dev --model mock` runs, as a worker reaches it (a real HTTP
 * server on 127.0.0.1): a planner adds tasks, a reviewer messages a task, workers set outputs;
 * then what an operator reads of that run: the report's added-by and message edges, and the MCP
 * `task_log` of an agent task with its transcript.
 */
describe('an agent team on the mock model', () => {
  let mock: MockModelServer;
  beforeAll(async () => {
    mock = await startMockModel();
  });
  afterAll(async () => {
    await mock?.close();
  });

  it('runs without a key; the report draws added-by and message edges; task_log returns the transcript', async ({
    onTestFinished,
  }) => {
    const worker = await workerForTest(
      { config: testConfig({ llm: { baseUrl: mock.baseUrl, apiKeyEnv: 'TEAMRUN_NO_KEY_HERE' } }) },
      onTestFinished,
    );
    const handle = await startRun(
      {
        name: 'mock-team',
        teammates: 3,
        lease: { ttlMs: 10_000 },
        budget: { maxSpawnedTasks: 4 },
        tasks: [
          {
            key: 'plan',
            allowSpawn: true,
            executor: {
              kind: 'agent',
              model: 'mock',
              instructions:
                'You plan. Add tasks with teamrun__add_tasks (keys writer-1, writer-2; tools [teamrun__set_output]).',
              prompt: 'A guide to fencing tokens, in two parts.',
              tools: ['teamrun__add_tasks'],
            },
          },
          {
            key: 'review',
            dependsOn: ['plan'],
            executor: {
              kind: 'agent',
              model: 'mock',
              instructions: 'You review. Send edit-1 one piece of advice with teamrun__send_message.',
              prompt: 'The plan: {{outputs.plan.content}}',
              tools: ['teamrun__send_message'],
            },
          },
          // Waits on the reviewer, so the message reaches a task that has not run yet: it reads it when it starts.
          { key: 'edit-1', dependsOn: ['review'], executor: { kind: 'noop' } },
        ],
      },
      worker.taskQueue,
    );
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    expect(result.tasks.map((t) => t.key).sort()).toEqual(['edit-1', 'plan', 'review', 'writer-1', 'writer-2']);
    const byKey = new Map(result.tasks.map((t) => [t.key, t]));
    expect(byKey.get('writer-1')).toMatchObject({ parent: 'plan', status: 'succeeded' });
    expect(JSON.stringify(byKey.get('writer-1')!.output)).toContain('[mock model]');
    expect(JSON.stringify(byKey.get('plan')!.output)).toContain('[mock model] Plan: writer-1, writer-2');
    expect(mock.answered()).toBeGreaterThanOrEqual(8);

    const report = await loadRunReport(await testClient(), handle.workflowId);
    const text = renderReportText(report);
    expect(text).toContain('messages between tasks\n  review -> edit-1');
    const html = renderReportHtml(report);
    for (const [kind, from, to] of [
      ['added', 'plan', 'writer-1'],
      ['added', 'plan', 'writer-2'],
      ['message', 'review', 'edit-1'],
      ['dependency', 'review', 'edit-1'],
    ]) {
      expect(html).toContain(`class="edge ${kind}" data-kind="${kind}" data-from="${from}" data-to="${to}"`);
    }

    // The MCP door, as a coordinator reads what a worker agent did.
    const mcp = await mcpStdioClient(worker.taskQueue, onTestFinished, {
      actor: 'coordinator-test',
      name: 'agent-mock-test',
    });
    const call = async (args: Record<string, unknown>) => {
      const answer = (await mcp.callTool({ name: 'task_log', arguments: args })) as CallToolResult;
      if (answer.isError) throw new Error(`task_log refused: ${JSON.stringify(answer.content)}`);
      return answer.structuredContent as {
        transcript: {
          journal: string;
          total: number;
          nextCursor: string | null;
          steps: Array<{ index: number; kind: string; turn: number | null; text: string }>;
        } | null;
      };
    };
    const whole = (await call({ runId: handle.workflowId, key: 'plan' })).transcript!;
    expect(whole.journal).toBe(`teamrun-agent:${handle.workflowId}:plan`);
    expect(whole.nextCursor).toBeNull();
    expect(whole.steps.length).toBe(whole.total);
    const texts = whole.steps.map((s) => s.text).join('\n');
    expect(texts).toContain('[system] You plan.');
    expect(texts).toMatch(/\[model, turn 1\].*\n {2}-> teamrun__add_tasks\(.*"key":"writer-1"/);
    expect(texts).toMatch(/\[tool, turn 1\] teamrun__add_tasks ok/);
    expect(texts).toContain('[mock model] Plan: writer-1, writer-2');

    // Paged: two steps at a time, the cursor reads on to the same steps.
    const first = (await call({ runId: handle.workflowId, key: 'plan', transcriptLimit: 2 })).transcript!;
    expect(first.steps.map((s) => s.index)).toEqual([0, 1]);
    expect(first.nextCursor).toBe('2');
    const next = (
      await call({ runId: handle.workflowId, key: 'plan', transcriptLimit: 2, transcriptCursor: first.nextCursor })
    ).transcript!;
    expect(next.steps).toEqual(whole.steps.slice(2, 4));

    // A task that is not an agent has no transcript.
    expect((await call({ runId: handle.workflowId, key: 'edit-1' })).transcript).toBeNull();
  });
});
