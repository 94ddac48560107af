import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { teamrun } from '../cli/teamrun-cli';
import { spawnWorkerProcess, uniqueQueue } from '../helpers/env';
import { modulesLoaded, recordingModulesTo } from '../helpers/loaded-modules';

/** Nothing in the environment turns tracing on, whatever the machine running the tests has set. */
const untraced = { OTEL_EXPORTER_OTLP_ENDPOINT: undefined, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: undefined };
const SDK_MODULES = [
  '@opentelemetry/sdk-trace-base',
  '@opentelemetry/otlp-exporter-base',
  '@opentelemetry/otlp-transformer',
  'interceptors-opentelemetry',
];

describe('tracing off (no OTEL_EXPORTER_OTLP_ENDPOINT, no telemetry: in teamrun.yaml)', () => {
  it('loads no OpenTelemetry SDK or exporter in the worker or the CLI, and gives a shell task no TRACEPARENT', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-untraced-'));
    const loaded = { worker: path.join(dir, 'worker.json'), cli: path.join(dir, 'cli.json') };
    const taskQueue = uniqueQueue('untraced');
    const worker = await spawnWorkerProcess({
      taskQueue,
      identity: 'untraced-worker',
      env: { ...untraced, ...recordingModulesTo(loaded.worker) },
    });
    const planFile = path.join(dir, 'plan.yaml');
    writeFileSync(
      planFile,
      JSON.stringify({
        name: 'untraced',
        tasks: [
          { key: 'env', executor: { kind: 'shell', command: 'echo "::teamrun-output::\\"${TRACEPARENT-unset}\\""' } },
        ],
      }),
    );

    const run = await teamrun(['start', planFile, '--wait', '--json', '--task-queue', taskQueue], {
      ...untraced,
      ...recordingModulesTo(loaded.cli),
    });
    worker.child.kill('SIGTERM');
    await worker.exited;

    expect(run.code).toBe(0);
    // `--wait --json` prints the `started` line, then the result as JSON.
    const result = JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as {
      status: string;
      tasks: Array<{ output: unknown }>;
    };
    expect(result.status).toBe('succeeded');
    expect(result.tasks[0].output).toBe('unset');
    for (const file of [loaded.worker, loaded.cli]) {
      const modules = modulesLoaded(file);
      // The control: the preload saw the process's modules (the Temporal SDK among them).
      expect(modules.some((m) => m.includes('@temporalio'))).toBe(true);
      expect(modules.filter((m) => SDK_MODULES.some((sdk) => m.includes(sdk)))).toEqual([]);
    }
  });
});
