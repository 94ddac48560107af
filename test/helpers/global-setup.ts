import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { writeFileSync } from 'node:fs';
import type { TestProject } from 'vitest/node' with { 'resolution-mode': 'import' };
import { findTemporalBinary } from '../../src/devserver/binary';
import { freePort, startDevServer, type DevServer } from '../../src/devserver/server';
import { workflowsPath } from '../../src/worker/create-worker';
import { stopLeftovers } from './leftovers';

declare module 'vitest' {
  export interface ProvidedContext {
    temporalAddress: string;
    temporalBinary: string;
    workflowBundle: string;
  }
}

let server: DevServer | undefined;
let dir: string | undefined;
let runTmp: string | undefined;

/**
 * Starts one dev server and bundles the workflows once, for every test file of the run.
 *
 * The run gets a temporary directory of its own, as TMPDIR of every process it starts (the test files' forks, and what
 * they start): whatever a test leaves in os.tmpdir() goes with the run, and a process still holding that TMPDIR when
 * the run ends, its parent gone, is one the run left behind and is stopped (teardown).
 */
export async function setup(project: TestProject): Promise<void> {
  const binary = findTemporalBinary();
  const outerTmp = os.tmpdir();
  runTmp = mkdtempSync(path.join(outerTmp, 'teamrun-run-'));
  // tsx (which runs the CLI from src in the CLI tests) keeps its compile cache in TMPDIR: keep using the machine's, or
  // every run would compile src afresh in each of its first CLI runs.
  const tsxCache = `tsx-${process.geteuid?.() ?? os.userInfo().username}`;
  mkdirSync(path.join(outerTmp, tsxCache), { recursive: true });
  symlinkSync(path.join(outerTmp, tsxCache), path.join(runTmp, tsxCache));
  process.env.TMPDIR = runTmp;
  dir = mkdtempSync(path.join(runTmp, 'setup-'));
  const bundle = await bundleWorkflowCode({ workflowsPath: workflowsPath(), logger: quietLogger });
  const bundlePath = path.join(dir, 'workflow-bundle.js');
  writeFileSync(bundlePath, bundle.code);
  server = await startWithRetry(binary, dir);
  project.provide('temporalAddress', server.address);
  project.provide('temporalBinary', binary);
  project.provide('workflowBundle', bundlePath);
}

/**
 * A port found free can be taken by another process before the server binds it (several test
 * runs share this machine), and the server also picks internal ports of its own: try again.
 */
async function startWithRetry(binary: string, workDir: string, tries = 3): Promise<DevServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      const port = await freePort();
      const dbFile = path.join(workDir, `dev-${attempt}.db`);
      // A test run killed outright (a timeout's SIGKILL) takes its server with it instead of leaving it running.
      return await startDevServer({ binary, port, dbFile, headless: true, stopWithParent: true });
    } catch (err) {
      if (attempt >= tries) throw err;
    }
  }
}

export async function teardown(): Promise<void> {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
  if (runTmp) {
    const stopped = await stopLeftovers(`TMPDIR=${runTmp}`);
    if (stopped > 0) console.warn(`teardown: stopped ${stopped} process(es) the tests left running`);
    rmSync(runTmp, { recursive: true, force: true });
  }
}

const noop = () => undefined;
const quietLogger = { log: noop, trace: noop, debug: noop, info: noop, warn: noop, error: console.error };
