import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { ConfigSchema } from '../../src/config/config';
import { teamrun } from '../cli/teamrun-cli';
import { startRun, startTestWorker, testConfig, waitFor, type TestWorker } from '../helpers/env';
import { startOpenAiServer, type OpenAiServer } from '../helpers/openai-server';
import { SCREENSHOTS, countIs, launchBrowser, see, type Browser } from './browser';

const KEY_ENV = 'TEAMRUN_TEST_RECORD_KEY';
const SECRET = 'sk-record-8d2f61c0ab';
const echoServer = path.resolve(__dirname, '..', 'helpers', 'mcp-echo-server.mjs');
/** $2 per million input tokens, $10 per million output tokens. */
const PRICES = { 'record-agent': { inputPerMTok: 2, outputPerMTok: 10 } };

/**
 * The report's agent record: what an agent said each turn, the MCP tool it called with which arguments and what
 * came back, and each turn's tokens and cost, under the timeline's step filter.
 */
describe("the report shows an agent's record: turn text, tool calls with arguments and results, cost per turn", () => {
  let server: OpenAiServer;
  let worker: TestWorker;
  let browser: Browser;
  let workflowId: string;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-ui-agent-'));
    server = await startOpenAiServer();
    // Turn 1 says what it will do (quoting the key, which the worker redacts) and calls the echo tool; turn 2 answers.
    server.script('record-agent', (r) =>
      r.turn === 1
        ? {
            usage: { promptTokens: 1_000, completionTokens: 100 },
            content: `I will look at the notes first (key ${SECRET}).`,
            toolCalls: [{ name: 'echo__echo', arguments: { text: 'hello notes' } }],
          }
        : { usage: { promptTokens: 2_000, completionTokens: 50 }, content: 'The notes say hello.' },
    );
    const config = testConfig({ llm: { baseUrl: server.baseUrl, apiKeyEnv: KEY_ENV } }, PRICES);
    config.worker.mcpServers = ConfigSchema.parse({
      worker: { mcpServers: { echo: { command: process.execPath, args: [echoServer] } } },
    }).worker.mcpServers;
    [worker, browser] = await Promise.all([
      startTestWorker({ config, env: { ...process.env, [KEY_ENV]: SECRET } }),
      launchBrowser(),
    ]);
    const handle = await startRun(
      {
        name: 'report-agent',
        tasks: [
          {
            key: 'reader',
            executor: { kind: 'agent', model: 'record-agent', prompt: 'Read the notes', tools: ['echo__echo'] },
          },
        ],
      },
      worker.taskQueue,
    );
    workflowId = handle.workflowId;
    expect((await handle.result()).status).toBe('succeeded');
    await waitFor('both model calls', () => server.requests.filter((r) => r.model === 'record-agent').length === 2);
  });
  afterAll(async () => {
    await browser?.close();
    await worker?.stop();
    await server?.close();
  });

  it('lists each turn with its text, tokens and cost, and each tool call folded with its arguments and result', async () => {
    const configFile = path.join(dir, 'teamrun.yaml');
    writeFileSync(configFile, stringify({ prices: PRICES }));
    const file = path.join(dir, 'report.html');
    const written = await teamrun(['report', workflowId, '--html', file], { TEAMRUN_CONFIG: configFile });
    expect(written.code, written.stderr).toBe(0);
    const page = await browser.context.newPage();
    await page.goto(`file://${file}`);

    const agent = page.locator('#agents details.agent[data-task="reader"]');
    await see(agent);
    // 2 turns, 1 tool call, 3,150 tokens, $0.0030 + $0.0045.
    await see(agent.locator('summary').first().getByText('reader · 2 turns · 1 tool call · 3,150 tokens · $0.0075'));
    const turns = agent.locator('.turn');
    await countIs(turns, 2);
    await see(turns.nth(0).getByText('turn 1 · 1,000 in / 100 out tokens · $0.0030'));
    await see(
      turns.nth(0).locator('pre.text').getByText(`I will look at the notes first (key [redacted:${KEY_ENV}]).`),
    );
    await see(turns.nth(1).getByText('turn 2 · 2,000 in / 50 out tokens · $0.0045'));
    await see(turns.nth(1).locator('pre.text').getByText('The notes say hello.'));
    expect(await page.content()).not.toContain(SECRET);

    // The tool call is folded: its arguments and result show once it is opened.
    const call = agent.locator('details.tool-call[data-tool="echo__echo"]');
    await see(call.locator('summary').getByText(/turn 1 · tool echo__echo · [\d,]+ ms · ok/));
    expect(await call.locator('pre.args').isVisible()).toBe(false);
    await call.locator('summary').click();
    await see(call.locator('pre.args').getByText('{"text":"hello notes"}'));
    await see(call.locator('pre.result').getByText(/"text":"hello notes"/));
    await page.locator('#agents').screenshot({ path: path.join(SCREENSHOTS, 'report-agent.png') });

    // The timeline's step filter applies to the record: Model shows the turns, Tools the tool call, System the prompt.
    const shown = async () => ({
      turns: await agent.locator('.turn').filter({ visible: true }).count(),
      tools: await agent.locator('.tool-call').filter({ visible: true }).count(),
      prompt: await agent.locator('.prompt').filter({ visible: true }).count(),
    });
    expect(await shown()).toEqual({ turns: 2, tools: 1, prompt: 1 });
    await page.getByRole('button', { name: 'Model (2)' }).click();
    expect(await shown()).toEqual({ turns: 2, tools: 0, prompt: 0 });
    await page.getByRole('button', { name: 'Tools (1)' }).click();
    expect(await shown()).toEqual({ turns: 0, tools: 1, prompt: 0 });
    await page.getByRole('button', { name: 'System' }).click();
    expect(await shown()).toEqual({ turns: 0, tools: 0, prompt: 1 });
    await page.close();
  });

  it('exports the transcript with `teamrun logs RUN KEY --json`', async () => {
    const { code, stdout, stderr } = await teamrun(['logs', workflowId, 'reader', '--json']);
    expect(code, stderr).toBe(0);
    const { transcript } = JSON.parse(stdout) as { transcript: { entries: Array<Record<string, unknown>> } };
    const kinds = transcript.entries.map((e) => e.kind);
    expect(kinds).toEqual(['start', 'model', 'tool-start', 'tool-result', 'model']);
    expect(transcript.entries[1]).toMatchObject({
      turn: 1,
      message: { content: `I will look at the notes first (key [redacted:${KEY_ENV}]).` },
    });
    expect(transcript.entries[3]).toMatchObject({ name: 'echo__echo', ok: true });
    expect(stdout).not.toContain(SECRET);
  });
});
