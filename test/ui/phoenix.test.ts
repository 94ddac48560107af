import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPhoenix, type RunningPhoenix } from '../../src/devserver/phoenix';
import { freePort } from '../../src/devserver/server';
import { workflowsPath } from '../../src/worker/create-worker';
import { WORKFLOW_TRACING_MODULE } from '../../src/worker/tracing';
import { teamrun } from '../cli/teamrun-cli';
import { spawnWorkerProcess, testClient, uniqueQueue, waitFor, type WorkerProcess } from '../helpers/env';
import { startOpenAiServer, type OpenAiServer } from '../helpers/openai-server';
import { phoenixTrace, type PhoenixTrace } from '../helpers/phoenix';
import { launchBrowser, see, type Browser } from './browser';

/** A row of the span's attribute table: its key, then its value. */
const attributeRow = (page: Page, key: string) => page.getByRole('row').filter({ hasText: key });

const quiet = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error: console.error };
const KEY_ENV = 'TRACE_UI_KEY';

/**
 * A team run's trace as someone opens it in Arize Phoenix's own UI (the built UI its wheel ships),
 * in headless Chromium: the run, an agent's attempt with its fencing token, and the agent's model
 * call as an LLM span with its token counts.
 */
describe("a run's trace in Phoenix's UI", () => {
  let phoenix: RunningPhoenix;
  let model: OpenAiServer;
  let worker: WorkerProcess;
  let browser: Browser;
  let page: Page;
  let trace: PhoenixTrace;
  const workflowId = uniqueQueue('traced-ui');

  beforeAll(async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-phoenix-ui-'));
    const [started, bundle] = await Promise.all([
      (async () =>
        startPhoenix({
          ports: { http: await freePort(), grpc: await freePort() },
          workingDir: path.join(dir, 'phoenix'),
          log: (line) => process.stderr.write(`phoenix: ${line}\n`),
        }))(),
      bundleWorkflowCode({
        workflowsPath: workflowsPath(),
        workflowInterceptorModules: [WORKFLOW_TRACING_MODULE],
        logger: quiet,
      }),
    ]);
    phoenix = started;
    const otelBundle = path.join(dir, 'workflow-bundle-otel.js');
    writeFileSync(otelBundle, bundle.code);
    model = await startOpenAiServer();
    // One turn: the model answers at once, 321 tokens in and 54 out.
    model.model('trace-model', { usage: { promptTokens: 321, completionTokens: 54 }, content: 'the notes' });
    const config = path.join(dir, 'worker.yaml');
    writeFileSync(
      config,
      `worker:\n  llm:\n    baseUrl: ${JSON.stringify(model.baseUrl)}\n    apiKeyEnv: ${KEY_ENV}\n` +
        'prices:\n  trace-model: { inputPerMTok: 3, outputPerMTok: 15 }\n',
    );
    const tracing = { OTEL_EXPORTER_OTLP_ENDPOINT: phoenix.otlpEndpoint, OTEL_BSP_SCHEDULE_DELAY: '200' };
    const taskQueue = uniqueQueue('traced-ui');
    worker = await spawnWorkerProcess({
      taskQueue,
      identity: 'traced-ui-worker',
      config,
      workflowBundle: otelBundle,
      env: { ...tracing, [KEY_ENV]: 'sk-trace-ui' },
    });
    const planFile = path.join(dir, 'plan.json');
    writeFileSync(
      planFile,
      JSON.stringify({
        name: 'traced-ui',
        tasks: [
          {
            key: 'research',
            executor: {
              kind: 'agent',
              model: 'trace-model',
              instructions: 'You take notes.',
              prompt: 'Notes on leases',
            },
          },
        ],
      }),
    );
    const cli = await teamrun(['start', planFile, '--id', workflowId, '--task-queue', taskQueue], tracing);
    expect(cli.code, cli.stderr).toBe(0);
    const client = await testClient();
    expect(await client.workflow.getHandle(workflowId).result()).toMatchObject({ status: 'succeeded' });
    trace = await waitFor(
      'the run whole in Phoenix',
      async () => {
        const found = await phoenixTrace(phoenix.url, `teamrun.run_id:${workflowId}`);
        const names = found?.spans.map((s) => s.name) ?? [];
        return names.includes('teamrun start') && names.includes('chat trace-model') && names.includes('task research')
          ? found
          : null;
      },
      120_000,
      1_000,
    );
    browser = await launchBrowser();
    page = browser.page;
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    worker?.child.kill('SIGTERM');
    await worker?.exited;
    await model?.close();
    await phoenix?.stop();
  });

  it('shows the run, the attempt with its fencing token, and the model call as an LLM span with its tokens', async () => {
    // What Phoenix stored: the model call is an LLM span with OpenInference's token counts.
    const [llm] = trace.byName('chat trace-model');
    expect(llm.kind).toBe('LLM');
    expect(llm.attributes).toMatchObject({
      'llm.model_name': 'trace-model',
      'llm.token_count.prompt': 321,
      'llm.token_count.completion': 54,
      'llm.token_count.total': 375,
      'gen_ai.usage.input_tokens': 321,
    });
    expect(llm.attributes['llm.cost.total']).toBeCloseTo(0.001773, 9);
    expect(trace.ancestors(llm)[0]).toBe('attempt research#1');

    // The trace, opened by its id as a link from a log line would.
    await page.goto(`${phoenix.url}/redirects/traces/${trace.traceId}`, { waitUntil: 'domcontentloaded' });
    for (const name of ['teamrun start', 'RunWorkflow:teamRun', 'task research', 'attempt research#1']) {
      await see(page.getByText(name, { exact: true }), 60_000);
    }
    await see(page.getByText('chat trace-model', { exact: true }));
    await browser.screenshot('phoenix-trace');

    // The attempt's span, opened as a link to it would: an AGENT span, its fencing token among its attributes.
    const [attempt] = trace.byName('attempt research#1');
    await page.goto(`${phoenix.url}/redirects/spans/${attempt.spanId}`, { waitUntil: 'domcontentloaded' });
    const detail = page.locator('main');
    await see(attributeRow(page, 'teamrun.fencing_token'), 60_000);
    expect(await attributeRow(page, 'teamrun.fencing_token').first().innerText()).toMatch(
      /teamrun\.fencing_token\s+1$/,
    );
    expect(await attributeRow(page, 'teamrun.attempt').first().innerText()).toMatch(/teamrun\.attempt\s+1$/);
    await see(detail.getByText('agent', { exact: true }));
    await browser.screenshot('phoenix-attempt');

    // The model call: an LLM span with its model and its token counts.
    await page.goto(`${phoenix.url}/redirects/spans/${llm.spanId}`, { waitUntil: 'domcontentloaded' });
    await see(detail.getByText('llm', { exact: true }), 60_000);
    await browser.screenshot('phoenix-llm-span', { fullPage: true });
    await page.getByRole('tab', { name: 'Attributes' }).click();
    for (const [key, value] of [
      ['llm.model_name', 'trace-model'],
      ['llm.token_count.prompt', '321'],
      ['llm.token_count.completion', '54'],
      ['llm.token_count.total', '375'],
    ]) {
      await see(attributeRow(page, key));
      expect(await attributeRow(page, key).first().innerText()).toMatch(
        new RegExp(`^${key.replace(/\./g, '\\.')}\\s+${value}$`),
      );
    }
    await browser.screenshot('phoenix-llm-attributes', { fullPage: true });
  });
});
