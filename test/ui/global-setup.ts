import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import type { TestProject } from 'vitest/node' with { 'resolution-mode': 'import' };
import { findTemporalBinary } from '../../src/devserver/binary';
import { freePort, startDevServer, type DevServer } from '../../src/devserver/server';
import { workflowsPath } from '../../src/worker/create-worker';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Base URL of this dev server's Web UI (the shared test server is headless; this one is not). */
    uiUrl: string;
  }
}

let server: DevServer | undefined;
let dir: string | undefined;

/**
 * The browser tests' own dev server, WITH its Web UI, on free ports; it provides the same
 * context as the shared test setup (so test/helpers work here) plus the UI's URL.
 */
export async function setup(project: TestProject): Promise<void> {
  const binary = findTemporalBinary();
  dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-ui-'));
  const [port, uiPort, bundle] = await Promise.all([
    freePort(),
    freePort(),
    bundleWorkflowCode({ workflowsPath: workflowsPath(), logger: quietLogger }),
  ]);
  const bundlePath = path.join(dir, 'workflow-bundle.js');
  writeFileSync(bundlePath, bundle.code);
  const dbFile = path.join(dir, 'dev.db');
  server = await startDevServer({ binary, port, uiPort, dbFile, headless: false, stopWithParent: true });
  await waitForUi(server.uiUrl!);
  project.provide('temporalAddress', server.address);
  project.provide('temporalBinary', binary);
  project.provide('workflowBundle', bundlePath);
  project.provide('uiUrl', server.uiUrl!);
}

export async function teardown(): Promise<void> {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}

/** The UI server starts a moment after the frontend answers. */
export async function waitForUi(url: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the Web UI at ${url} did not answer in time`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const noop = () => undefined;
const quietLogger = { log: noop, trace: noop, debug: noop, info: noop, warn: noop, error: console.error };
