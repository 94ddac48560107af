import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import type { TestProject } from 'vitest/node' with { 'resolution-mode': 'import' };
import { findTemporalBinary } from '../../src/devserver/binary';
import { workflowsPath } from '../../src/worker/create-worker';
import { startCluster, stopCluster } from '../../scripts/cluster/cluster';
import { clusterUp } from './cluster-helpers';

let startedHere = false;
let dir: string | undefined;

/**
 * Uses the cluster `npm run cluster` started, or starts one (building the server the first time)
 * and stops it at the end. Provides what test/helpers/env.ts reads, so its helpers (workers,
 * clients, waits) work against the cluster as they do against the dev server.
 */
export async function setup(project: TestProject): Promise<void> {
  const binary = findTemporalBinary();
  const log = (line: string) => process.stderr.write(`cluster: ${line}\n`);
  startedHere = !clusterUp();
  const began = Date.now();
  const { address } = await startCluster({ log });
  if (startedHere) log(`started for the tests in ${((Date.now() - began) / 1000).toFixed(1)} s`);
  dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-cluster-test-'));
  const bundle = await bundleWorkflowCode({ workflowsPath: workflowsPath(), logger: quietLogger });
  const bundlePath = path.join(dir, 'workflow-bundle.js');
  writeFileSync(bundlePath, bundle.code);
  project.provide('temporalAddress', address);
  project.provide('temporalBinary', binary);
  project.provide('workflowBundle', bundlePath);
}

export async function teardown(): Promise<void> {
  if (startedHere && !process.env.TEAMRUN_CLUSTER_KEEP) await stopCluster();
  if (dir) rmSync(dir, { recursive: true, force: true });
}

const noop = () => undefined;
const quietLogger = { log: noop, trace: noop, debug: noop, info: noop, warn: noop, error: console.error };
