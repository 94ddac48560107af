import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, type Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { codecFor, dataConverterFor } from '../../src/codec';
import { startCodecServer, type CodecServer } from '../../src/codec/server';
import { startTeamRun, type TeamRunHandle } from '../../src/client';
import { ConfigSchema, type TeamrunConfig } from '../../src/config/config';
import { freePort, startDevServer, type DevServer } from '../../src/devserver/server';
import { createWorker } from '../../src/worker/create-worker';
import { uniqueQueue } from '../helpers/env';
import { launchBrowser, see, type Browser } from './browser';
import { waitForUi } from './global-setup';

const INPUT_LITERAL = 'SEEN-DECODED-IN-THE-UI-4b7d';
const OUTPUT_LITERAL = 'OUTPUT-DECODED-IN-THE-UI';

/**
 * An operator reads an encrypted run in the Temporal Web UI: the dev server's UI is started with
 * `--ui-codec-endpoint` pointing at teamrun's codec server, and the browser shows the decoded
 * plan and result. Its own dev server, because the codec endpoint is fixed when the UI starts.
 */
describe('the Web UI, pointed at `teamrun codec-server`, shows an encrypted run decoded', () => {
  let dir: string;
  let server: DevServer;
  let codecServer: CodecServer | null = null;
  let worker: Worker;
  let running: Promise<void>;
  let workerConnection: NativeConnection;
  let client: Client;
  let handle: TeamRunHandle;
  let browser: Browser;
  const requests: string[] = [];
  const token = randomBytes(24).toString('hex');
  const keyEnv = 'TEAMRUN_UI_TEST_CODEC_KEY';

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-ui-codec-'));
    process.env[keyEnv] = randomBytes(32).toString('base64');
    const config: TeamrunConfig = ConfigSchema.parse({
      codec: { currentKeyId: 'ui-1', keys: [{ id: 'ui-1', env: keyEnv }] },
    });
    const [port, uiPort, codecPort] = await Promise.all([freePort(), freePort(), freePort()]);
    const ui = `http://127.0.0.1:${uiPort}`;
    codecServer = await startCodecServer({
      codec: codecFor(config)!,
      token,
      corsOrigins: [ui, `http://localhost:${uiPort}`],
      namespaces: ['default'],
      host: '127.0.0.1',
      port: codecPort,
      log: (line) => requests.push(line),
    });
    // The UI's browser code calls the endpoint; it can send no Authorization header without an
    // OIDC login, so the token rides in the path (docs/security.md says what that means).
    server = await startDevServer({
      port,
      uiPort,
      dbFile: path.join(dir, 'dev.db'),
      headless: false,
      uiCodecEndpoint: `${codecServer.url}/t/${token}`,
    });
    await waitForUi(server.uiUrl!);

    config.connection.address = server.address;
    const taskQueue = uniqueQueue('ui-codec');
    workerConnection = await NativeConnection.connect({ address: server.address });
    worker = await createWorker({
      config,
      connection: workerConnection,
      taskQueue,
      workflowBundle: { codePath: inject('workflowBundle') },
    });
    running = worker.run();
    client = new Client({
      connection: await Connection.connect({ address: server.address }),
      dataConverter: dataConverterFor(config),
    });
    handle = await startTeamRun(
      client,
      {
        name: 'ui-codec',
        tasks: [
          {
            key: 'say',
            title: INPUT_LITERAL,
            executor: { kind: 'shell', command: `printf '::teamrun-output::"%s-%s"\\n' OUTPUT DECODED-IN-THE-UI` },
          },
        ],
      },
      { taskQueue, workflowId: uniqueQueue('ui-codec') },
    );
    expect((await handle.result()).tasks[0].output).toBe(OUTPUT_LITERAL);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await client?.connection.close();
    if (worker?.getState() === 'RUNNING') worker.shutdown();
    await running;
    await workerConnection?.close();
    await codecServer?.close();
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps history ciphertext for anyone without the codec', async () => {
    const raw = JSON.stringify(await handle.fetchHistory());
    expect(raw).not.toContain(INPUT_LITERAL);
    expect(raw).not.toContain(Buffer.from(INPUT_LITERAL).toString('base64').slice(0, 16));
  });

  it("shows the run's input and result decoded, fetched from the codec server", async () => {
    const { page } = browser;
    await page.goto(`${server.uiUrl}/namespaces/default/workflows/${encodeURIComponent(handle.workflowId)}`, {
      waitUntil: 'domcontentloaded',
    });
    await page.getByText('Workflow Type').first().waitFor();
    await see(page.getByText(`"title": "${INPUT_LITERAL}"`).first());
    await see(page.getByText('"status": "succeeded"').first());
    // The attempt's summary (user metadata) is a payload too.
    await see(page.getByText(`runTask • ${INPUT_LITERAL}`).first());
    await browser.screenshot('ui-codec-decoded');
    expect(requests.some((line) => line.startsWith('POST /t/***/decode 200 namespace=default'))).toBe(true);
  });

  it('shows ciphertext, not the plan, once the codec server is gone', async () => {
    await codecServer!.close();
    codecServer = null;
    const { page } = browser;
    await page.goto(`${server.uiUrl}/namespaces/default/workflows/${encodeURIComponent(handle.workflowId)}`, {
      waitUntil: 'domcontentloaded',
    });
    await page.getByText('Workflow Type').first().waitFor();
    await see(page.getByText(/Codec Server could not/).filter({ visible: true }));
    expect(await page.getByText(INPUT_LITERAL).count()).toBe(0);
    expect(await page.getByText('"status": "succeeded"').count()).toBe(0);
    await browser.screenshot('ui-codec-without-server');
  });
});
