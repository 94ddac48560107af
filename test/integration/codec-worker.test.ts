import { execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { WorkflowFailedError } from '@temporalio/client';
import { afterAll, describe, expect, it } from 'vitest';
import { connectClient, startTeamRun } from '../../src/client';
import { loadConfig } from '../../src/config/config';
import { KEY1, codecFixture, readableStrings } from '../helpers/codec';
import { temporalAddress, temporalBinary, uniqueQueue, waitFor } from '../helpers/env';

const fx = codecFixture();
afterAll(() => fx.cleanup());

describe('a `teamrun worker` process that bundles the workflows itself, with the codec on', () => {
  it('encrypts failures the workflow raises too: an invalid plan fails with its problems readable only through the codec', async () => {
    const config = fx.config('worker', { currentKeyId: 'k1', keys: [KEY1] });
    const taskQueue = uniqueQueue('codec-worker');
    // No pre-built bundle (unlike the other tests' workers): it bundles the workflows with the codec's failure converter.
    const worker = await selfBundlingWorker(taskQueue, config);
    try {
      const clientConfig = loadConfig(config);
      clientConfig.connection.address = temporalAddress();
      const client = await connectClient(clientConfig);
      try {
        const handle = await startTeamRun(
          client,
          { name: 'codec-invalid', tasks: [{ key: 'a', dependsOn: ['DEP-PLAIN-61be'], executor: { kind: 'noop' } }] },
          { taskQueue, workflowId: uniqueQueue('codec-invalid') },
        );
        const failure = await handle.result().then(
          () => null,
          (err: unknown) => err,
        );
        expect(failure).toBeInstanceOf(WorkflowFailedError);
        expect(((failure as WorkflowFailedError).cause as Error).message).toContain('unknown task "DEP-PLAIN-61be"');

        const { stdout } = await promisify(execFile)(temporalBinary(), [
          'workflow',
          'show',
          '-w',
          handle.workflowId,
          '-o',
          'json',
          '--address',
          temporalAddress(),
        ]);
        const raw = JSON.parse(stdout) as {
          events: { workflowExecutionFailedEventAttributes?: { failure: { message: string } } }[];
        };
        expect(readableStrings(raw).filter((s) => s.includes('DEP-PLAIN-61be'))).toEqual([]);
        expect(
          raw.events.find((e) => e.workflowExecutionFailedEventAttributes)!.workflowExecutionFailedEventAttributes!
            .failure.message,
        ).toBe('Encoded failure');
      } finally {
        await client.connection.close();
      }
    } finally {
      worker.kill('SIGTERM');
      await new Promise((resolve) => (worker.exitCode === null ? worker.once('exit', resolve) : resolve(null)));
    }
  });
});

/** `src/worker/main.ts` as `teamrun worker` runs it, without TEAMRUN_WORKFLOW_BUNDLE. */
async function selfBundlingWorker(taskQueue: string, config: string) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...fx.env,
    TEMPORAL_ADDRESS: temporalAddress(),
    TEAMRUN_TASK_QUEUE: taskQueue,
    TEAMRUN_CONFIG: config,
  };
  delete env.TEAMRUN_WORKFLOW_BUNDLE;
  const child = spawn(process.execPath, ['--import', 'tsx', path.resolve(__dirname, '../../src/worker/main.ts')], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
  await waitFor(
    'the worker to bundle its workflows and start',
    () => {
      if (child.exitCode !== null) throw new Error(`worker exited: ${out}`);
      return out.includes('teamrun worker ready');
    },
    180_000,
    250,
  );
  return child;
}
