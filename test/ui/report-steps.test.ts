import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { teamrun } from '../cli/teamrun-cli';
import { startRun, startTestWorker, testConfig, waitFor, type TestWorker } from '../helpers/env';
import { startOpenAiServer, type OpenAiServer } from '../helpers/openai-server';
import { countIs, launchBrowser, see, type Browser } from './browser';

const KEY_ENV = 'TEAMRUN_TEST_AGENT_KEY';

/**
 * An agent's timeline row holds its model calls, its tool calls and the run's own steps (the
 * attempt's bar, a person's steer): the report's step filters show each kind apart.
 */
describe("the report's timeline shows an agent's model, tool and system steps apart", () => {
  let server: OpenAiServer;
  let worker: TestWorker;
  let browser: Browser;
  let workflowId: string;

  beforeAll(async () => {
    server = await startOpenAiServer();
    // Turn 1 asks for two tools (one the worker has not got) and is slow, so a person steers meanwhile.
    server.script('report-steps', (r) =>
      r.turn === 1
        ? {
            usage: { promptTokens: 100, completionTokens: 20 },
            delayMs: 1_500,
            toolCalls: [
              { name: 'teamrun__set_output', arguments: { output: 'short' } },
              { name: 'fs__read_file', arguments: { path: 'x' } },
            ],
          }
        : { usage: { promptTokens: 120, completionTokens: 5 }, content: 'done' },
    );
    [worker, browser] = await Promise.all([
      startTestWorker({
        config: testConfig({ llm: { baseUrl: server.baseUrl, apiKeyEnv: KEY_ENV } }),
        env: { [KEY_ENV]: 'sk-report' },
      }),
      launchBrowser(),
    ]);
    const handle = await startRun(
      {
        name: 'report-steps',
        lease: { ttlMs: 5_000 },
        tasks: [
          {
            key: 'writer',
            executor: { kind: 'agent', model: 'report-steps', prompt: 'Write', tools: ['teamrun__set_output'] },
          },
        ],
      },
      worker.taskQueue,
    );
    workflowId = handle.workflowId;
    await waitFor('the first model call', () => server.requests.some((r) => r.model === 'report-steps'));
    expect(await handle.steer({ key: 'writer', text: 'Be brief.', actor: 'alice' })).toEqual({ ok: true, turn: 2 });
    expect((await handle.result()).status).toBe('succeeded');
  });
  afterAll(async () => {
    await browser?.close();
    await worker?.stop();
    await server?.close();
  });

  it('filters the timeline to model calls, tool calls or system steps', async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'teamrun-ui-steps-')), 'report.html');
    expect((await teamrun(['report', workflowId, '--html', file])).code).toBe(0);
    const page = await browser.context.newPage();
    await page.goto(`file://${file}`);
    const row = page.locator('#task-writer .track');
    const shown = (selector: string) => row.locator(selector).filter({ visible: true });
    const counts = async () => ({
      model: await shown('.step-model').count(),
      tool: await shown('.step-tool').count(),
      attempt: await shown('.bar').count(),
      steer: await shown('.mark.steer').count(),
    });
    await see(row.locator('.bar'));
    expect(await counts()).toEqual({ model: 2, tool: 2, attempt: 1, steer: 1 });
    // Each step says what it was: the tools a model call asked for, a tool's outcome.
    expect(await row.locator('.step-model').first().getAttribute('title')).toContain(
      'asked for teamrun__set_output, fs__read_file',
    );
    await countIs(row.locator('.step-tool.failed'), 1);

    await page.getByRole('button', { name: 'Model (2)' }).click();
    expect(await counts()).toEqual({ model: 2, tool: 0, attempt: 0, steer: 0 });
    await page.getByRole('button', { name: 'Tools (2)' }).click();
    expect(await counts()).toEqual({ model: 0, tool: 2, attempt: 0, steer: 0 });
    await page.getByRole('button', { name: 'System' }).click();
    expect(await counts()).toEqual({ model: 0, tool: 0, attempt: 1, steer: 1 });
    expect(await page.getByRole('button', { name: 'System' }).getAttribute('aria-pressed')).toBe('true');
    // The axis stays whatever the filter.
    await countIs(page.locator('#timeline .axis .tick').filter({ visible: true }), 5);
    await page.getByRole('button', { name: 'Every step' }).click();
    expect(await counts()).toEqual({ model: 2, tool: 2, attempt: 1, steer: 1 });

    // Steps are the timeline's; the control table lists the steer, not the worker's step batches.
    await countIs(page.locator('tr.control[data-name="agentSteps"]'), 0);
    await see(page.locator('tr.control[data-name="steerTask"]').getByText('steer writer: Be brief.'));
    await page.close();
  });
});
