import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnTeamrun, waitForOutput } from '../cli/teamrun-cli';
import { startOpenAiServer, type OpenAiServer } from '../helpers/openai-server';
import { testConfig, waitFor } from '../helpers/env';
import { mcpStdioClient } from '../helpers/mcp-client';
import { runForTest, workerForTest } from '../helpers/scenario';

const KEY_ENV = 'TEAMRUN_TEST_AGENT_LIVE_KEY';
const ANSWER = 'First I read the brief, then I outline the three sections and write each one in turn.';
/**
 * Characters of the answer the model streams before it holds (the rest comes only once the test lets it): up to a
 * comma, which no secret's forms begin with, as a tail that may open a secret is held back by design.
 */
const HELD_AFTER = ANSWER.indexOf(',') + 1;

let server: OpenAiServer;
beforeAll(async () => {
  server = await startOpenAiServer();
});
afterAll(() => server.close());

describe('an agent model call watched while it streams', () => {
  it('teamrun watch and the MCP door show the partial answer of a model call held mid-stream, before the call ends', async ({
    onTestFinished,
  }) => {
    let resume!: () => void;
    const resumed = new Promise<void>((resolve) => (resume = resolve));
    server.model('live-writer', {
      content: ANSWER,
      usage: { promptTokens: 40, completionTokens: 20 },
      hold: { afterChars: HELD_AFTER, resume: resumed },
    });
    onTestFinished(() => resume());
    const config = testConfig({ llm: { baseUrl: server.baseUrl, apiKeyEnv: KEY_ENV } });
    const worker = await workerForTest({ config, env: { ...process.env, [KEY_ENV]: 'sk-agent-live' } }, onTestFinished);
    const handle = await runForTest(
      {
        name: 'agent-live',
        tasks: [{ key: 'writer', executor: { kind: 'agent', model: 'live-writer', prompt: 'Write it', tools: [] } }],
      },
      worker,
    );
    const watch = spawnTeamrun(['watch', handle.workflowId]);
    onTestFinished(() => void watch.child.kill('SIGKILL'));

    // The model has streamed its first words and holds: the call is in flight, its words already on screen.
    const partial = ANSWER.slice(0, HELD_AFTER);
    await waitForOutput(watch, `writer · turn 1 · writing: ${partial}`);
    const request = server.requests.find((r) => r.model === 'live-writer');
    expect(request?.stream).toBe(true);
    expect(request?.aborted).toBe(false);
    expect(watch.stderr() + watch.stdout()).not.toContain(ANSWER.slice(HELD_AFTER + 1));

    // The MCP door lists the same words while the call holds.
    const mcp = await mcpStdioClient(worker.taskQueue, onTestFinished, { name: 'agent-live-test' });
    const live = await waitFor(
      'read_events to list the partial answer',
      async () => {
        const result = (await mcp.callTool({
          name: 'read_events',
          arguments: { runId: handle.workflowId },
        })) as CallToolResult;
        const found = (result.structuredContent as { live?: Array<{ key: string; turn: number; text: string }> }).live;
        return found?.length ? found : null;
      },
      90_000,
    );
    expect(live).toEqual([expect.objectContaining({ key: 'writer', turn: 1, text: partial })]);
    expect((await handle.describe()).raw.pendingActivities?.map((a) => a.activityId)).toEqual(['writer#1']);

    // Let the model finish: the call ends, the run succeeds with the whole answer.
    resume();
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    expect(result.tasks.find((t) => t.key === 'writer')?.output).toEqual({ content: ANSWER });
    const { code, stderr } = await watch.exited;
    expect(code, stderr).toBe(0);
  });
});
