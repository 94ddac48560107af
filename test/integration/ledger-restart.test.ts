import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import { startTeamRun } from '../../src/client';
import { freePort, startDevServer, type DevServer } from '../../src/devserver/server';
import type { TeamPlanInput } from '../../src/plan/schema';
import type { LedgerStatus } from '../../src/ledger/rules';
import { createWorker } from '../../src/worker/create-worker';
import { teamrun } from '../cli/teamrun-cli';
import { temporalBinary, testConfig, uniqueQueue } from '../helpers/env';

/** A dev server of this test's own (the shared one must not restart under other tests), on a SQLite file. */
async function ownServer(dbFile: string, port: number): Promise<DevServer> {
  return startDevServer({ binary: temporalBinary(), port, dbFile, headless: true });
}

/** An in-process worker on `address`; returns its stop function. */
async function workerOn(address: string, taskQueue: string): Promise<() => Promise<void>> {
  const connection = await NativeConnection.connect({ address });
  const config = testConfig();
  config.connection.address = address;
  const worker = await createWorker({
    config,
    connection,
    taskQueue,
    workflowBundle: { codePath: inject('workflowBundle') },
  });
  const running = worker.run();
  return async () => {
    if (worker.getState() === 'RUNNING') worker.shutdown();
    await running;
    await connection.close();
  };
}

const spending = (name: string, ledger: string, tokens: number): TeamPlanInput => ({
  name,
  lease: { ttlMs: 2_000 },
  // A spend the ledger refuses while it runs goes to adjudication: the run closes rather than wait for a person.
  awaitAdjudication: false,
  budget: { ledger },
  tasks: [{ key: 'spend', executor: { kind: 'shell', command: `echo '::teamrun-usage::{"inputTokens":${tokens}}'` } }],
});

describe('a shared ledger across a dev-server restart (its own dev server)', () => {
  beforeAll(() => {
    // This file builds its workers itself (on its own server): keep their logs to warnings.
    Runtime.install({ logger: new DefaultLogger('WARN') });
  });

  it('keeps what was spent and goes on enforcing its limits after the server restarts on its database', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-ledger-restart-'));
    const dbFile = path.join(dir, 'dev.db');
    const port = await freePort();
    let server = await ownServer(dbFile, port);
    let stopWorker: (() => Promise<void>) | undefined;
    let connection: Connection | undefined;
    onTestFinished(async () => {
      await stopWorker?.();
      await connection?.close();
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    });
    const { address } = server;
    const taskQueue = uniqueQueue('ledger-restart');
    const ledger = uniqueQueue('restart');
    const cli = (...args: string[]) =>
      teamrun(['--task-queue', taskQueue, 'ledger', ...args], { TEMPORAL_ADDRESS: address });

    stopWorker = await workerOn(address, taskQueue);
    const created = await cli('create', ledger, '--max-tokens', '1000', '--max-concurrent', '4');
    expect(created.stdout).toContain(`ledger ${ledger}`);
    connection = await Connection.connect({ address });
    const client = new Client({ connection });
    const before = await startTeamRun(client, spending('before', ledger, 700), { taskQueue });
    expect((await before.result()).status).toBe('succeeded');

    await stopWorker();
    stopWorker = undefined;
    await connection.close();
    connection = undefined;
    await server.stop();
    server = await ownServer(dbFile, port);
    stopWorker = await workerOn(address, taskQueue);

    const status = await cli('status', ledger, '--json');
    expect(status.code).toBe(0);
    const survived = JSON.parse(status.stdout) as LedgerStatus;
    expect(survived).toMatchObject({
      id: ledger,
      limits: { maxTokens: 1_000, maxConcurrent: 4 },
      used: { tokens: 700 },
      runs: [],
    });

    // 400 more crosses 1,000 only because the 700 from before the restart still count: the ledger refuses the
    // attempt's extension while it runs, and the attempt is charged what it reported.
    connection = await Connection.connect({ address });
    const after = new Client({ connection });
    const crossed = await (await startTeamRun(after, spending('after', ledger, 400), { taskQueue })).result();
    expect(crossed.adjudications).toMatchObject([{ key: 'spend', code: 'TEAM_TASK_BUDGET_EXCEEDED' }]);
    const late = await (await startTeamRun(after, spending('late', ledger, 1), { taskQueue })).result();
    expect(late).toMatchObject({ status: 'budget_stopped', budgetReason: 'ledger-max-tokens', executions: 0 });
    const text = await cli('status', ledger);
    expect(text.stdout).toMatch(/EXHAUSTED \(max-tokens\)/);
    expect(text.stdout).toMatch(/tokens\s+1,100 of 1,000 used/);
  });
});
