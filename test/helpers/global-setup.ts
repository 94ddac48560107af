import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { writeFileSync } from 'node:fs';
import type { TestProject } from 'vitest/node' with { 'resolution-mode': 'import' };
import { findTemporalBinary } from '../../src/devserver/binary';
import { freePort, startDevServer, type DevServer } from '../../src/devserver/server';
import { workflowsPath } from '../../src/worker/create-worker';

declare module 'vitest' {
  export interface ProvidedContext {
    temporalAddress: string;
    temporalBinary: string;
    workflowBundle: string;
  }
}

let server: DevServer | undefined;
let dir: string | undefined;

/** Starts one dev server and bundles the workflows once, for every test file of the run. */
export async function setup(project: TestProject): Promise<void> {
  const binary = findTemporalBinary();
  dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-test-'));
  const [port, bundle] = await Promise.all([
    freePort(),
    bundleWorkflowCode({ workflowsPath: workflowsPath(), logger: quietLogger }),
  ]);
  const bundlePath = path.join(dir, 'workflow-bundle.js');
  writeFileSync(bundlePath, bundle.code);
  server = await startDevServer({ binary, port, dbFile: path.join(dir, 'dev.db'), headless: true });
  project.provide('temporalAddress', server.address);
  project.provide('temporalBinary', binary);
  project.provide('workflowBundle', bundlePath);
}

export async function teardown(): Promise<void> {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}

const noop = () => undefined;
const quietLogger = { log: noop, trace: noop, debug: noop, info: noop, warn: noop, error: console.error };
