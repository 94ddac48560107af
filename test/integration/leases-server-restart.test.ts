import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startTeamRun } from '../../src/client';
import { freePort, startDevServer, type DevServer } from '../../src/devserver';
import * as msg from '../../src/workflows/messages';
import { temporalBinary, uniqueQueue, waitFor } from '../helpers/env';
import { TTL_MS, completionsByTask, eventsOf, report, spawnWorker, tempDir } from './leases-helpers';

describe('a dev server restarted under a running team run (its own server: the shared one must stay up)', () => {
  it('completes the run on the same SQLite file with the same worker process, every task settled exactly once', async () => {
    const dir = tempDir();
    const port = await freePort();
    const dbFile = path.join(dir, 'server.db');
    const start = () => startDevServer({ binary: temporalBinary(), port, dbFile, headless: true });
    let server: DevServer = await start();
    onTestFinished(() => server.stop());
    const connection = await Connection.connect({ address: server.address });
    onTestFinished(() => connection.close());
    const client = new Client({ connection });
    const queue = uniqueQueue('lease-restart');
    const worker = await spawnWorker(queue, 'restart-a', server.address);

    // Two layers of four one-second tasks: the restart lands while some have settled and some run.
    const first = ['a', 'b', 'c', 'd'];
    const handle = await startTeamRun(
      client,
      {
        name: 'lease-restart',
        teammates: 2,
        lease: { ttlMs: TTL_MS },
        // A lease can expire while the server is down; that costs an attempt, not the task.
        retry: { maxAttempts: 5, backoffMs: 0 },
        tasks: [
          ...first.map((key) => ({
            key,
            executor: { kind: 'shell', command: `sleep 1; echo "::teamrun-output::\\"${key}\\""` },
          })),
          ...['e', 'f', 'g', 'h'].map((key) => ({
            key,
            dependsOn: first,
            executor: { kind: 'shell', command: `sleep 1; echo "::teamrun-output::\\"${key}\\""` },
          })),
        ],
      },
      { taskQueue: queue, workflowId: uniqueQueue('lease-restart') },
    );
    await waitFor('two tasks to settle and two to run', async () => {
      const status = await handle.query(msg.statusQuery);
      return status.stats.succeeded >= 2 && status.stats.running > 0;
    });

    const stoppedAt = Date.now();
    await server.stop();
    server = await start();
    report(`dev server down for ${Date.now() - stoppedAt} ms (stop + start on the same SQLite file)`);
    const result = await handle.result();

    expect(worker.child.exitCode).toBeNull();
    expect(result.status).toBe('succeeded');
    expect(result.tasks.map((t) => [t.key, t.status, t.output])).toEqual(
      [...first, 'e', 'f', 'g', 'h'].map((key) => [key, 'succeeded', key]),
    );
    // Counted from the server's history, not from the run's own counters.
    expect(await completionsByTask(handle)).toEqual(
      Object.fromEntries([...first, 'e', 'f', 'g', 'h'].map((key) => [key, 1])),
    );
    expect((await eventsOf(handle, 'task:completed')).length).toBe(8);
    report(
      `attempts across the restart: ${result.executions} for 8 tasks (${(await eventsOf(handle, 'lease:expired')).length} lease(s) expired)`,
    );
  });
});
