import { afterAll, describe, it } from 'vitest';
import { connectClient, startTeamRun } from '../../src/client';
import { loadConfig } from '../../src/config/config';
import { KEY1, codecFixture } from '../helpers/codec';
import { spawnWorkerProcess, temporalAddress, uniqueQueue, waitFor } from '../helpers/env';
import { startOtlpCollector } from '../helpers/otlp-collector';

const fx = codecFixture();
afterAll(() => fx.cleanup());

/**
 * A traced worker process (its spans to a stand-in collector) runs a shell task that fails with a
 * text of its own on stderr; returns what the collector received once the attempt's span is in it.
 */
async function failedTaskExport(name: string, config: string, marker: string): Promise<string> {
  const otlp = await startOtlpCollector();
  const taskQueue = uniqueQueue(name);
  const worker = await spawnWorkerProcess({
    taskQueue,
    identity: `${name}-worker`,
    config,
    env: { ...fx.env, OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint, OTEL_BSP_SCHEDULE_DELAY: '200' },
  });
  const clientConfig = loadConfig(config, { ...process.env, ...fx.env });
  clientConfig.connection.address = temporalAddress();
  const client = await connectClient(clientConfig);
  try {
    // The text is built by the shell, so the plan (in history, and encrypted there) never holds it.
    const [head, tail] = [marker.slice(0, 8), marker.slice(8)];
    const handle = await startTeamRun(
      client,
      {
        name,
        awaitAdjudication: false,
        tasks: [
          {
            key: 'breaks',
            executor: {
              kind: 'shell',
              command: `echo "${head}""${tail}" >&2; echo "at ${head}""${tail}.js:1"; exit 3`,
            },
          },
        ],
      },
      { taskQueue, workflowId: uniqueQueue(name) },
    );
    const result = await handle.result();
    if (result.tasks[0].status !== 'failed') throw new Error(`the task did not fail: ${JSON.stringify(result)}`);
    if (!String(result.tasks[0].lastError).includes(marker)) throw new Error('the failure text is not the marker');
    return await waitFor(
      'the attempt span, with its failure, at the collector',
      () =>
        otlp.traces().includes('attempt breaks#') && otlp.traces().includes('TeamShellFailed') ? otlp.traces() : null,
      60_000,
      200,
    );
  } finally {
    await client.connection.close();
    worker.child.kill('SIGTERM');
    await worker.exited;
    await otlp.close();
  }
}

describe('traces obey the codec', () => {
  it("without the codec, the OTLP export holds a failed task's text (status, exception message and stack)", async ({
    expect,
  }) => {
    const marker = `FAILTEXT-${Math.random().toString(36).slice(2, 10)}`;
    const config = fx.config('traced-plain', undefined as never);
    const traces = await failedTaskExport('trace-plain', config, marker);
    expect(traces).toContain(marker);
  });

  it('with the codec on, the OTLP export holds no task failure text: only names, ids, outcome and type', async ({
    expect,
  }) => {
    const marker = `FAILTEXT-${Math.random().toString(36).slice(2, 10)}`;
    const config = fx.config('traced-codec', { currentKeyId: 'k1', keys: [KEY1] });
    const traces = await failedTaskExport('trace-codec', config, marker);
    expect(traces).not.toContain(marker);
    expect(traces).toContain('[withheld: payload codec on]');
  });
});
