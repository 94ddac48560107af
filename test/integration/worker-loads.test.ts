import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnTeamrun, teamrun, waitForOutput } from '../cli/teamrun-cli';
import { uniqueQueue } from '../helpers/env';
import { modulesLoaded, recordingModulesTo } from '../helpers/loaded-modules';

/** What a worker loads only for the tasks that need it, and the CLI's other commands' parts, which it never needs. */
const LOADED_WHEN_NEEDED = [
  // Model providers: a task with a model.
  '/@ai-sdk/anthropic/',
  '/@ai-sdk/openai/',
  '/@ai-sdk/google/',
  '/@ai-sdk/openai-compatible/',
  // A task's outputSchema.
  '/node_modules/ajv/',
  // An MCP tool (the client) or the MCP door (`teamrun mcp`, the server).
  '/@modelcontextprotocol/sdk/',
  // The CLI's renderers and the report's graph layout.
  '/node_modules/cli-progress/',
  '/@dagrejs/',
];

describe('what `teamrun worker` loads', () => {
  it('runs a plain task without loading a model provider, ajv, the MCP SDK or the other commands', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-loads-'));
    const loaded = path.join(dir, 'worker.json');
    const taskQueue = uniqueQueue('loads');
    const worker = spawnTeamrun(['worker', '--task-queue', taskQueue], {
      TEAMRUN_CONFIG: path.join(__dirname, '..', 'helpers', 'worker.yaml'),
      ...recordingModulesTo(loaded),
    });
    try {
      await waitForOutput(worker, 'teamrun worker ready');
      const planFile = path.join(dir, 'plan.yaml');
      const command = 'echo "::teamrun-output::\\"done\\""';
      writeFileSync(
        planFile,
        JSON.stringify({ name: 'loads', tasks: [{ key: 'plain', executor: { kind: 'shell', command } }] }),
      );
      const run = await teamrun(['start', planFile, '--wait', '--json', '--task-queue', taskQueue]);
      expect(run.code, run.stderr).toBe(0);
      const result = JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as {
        status: string;
        tasks: { output: unknown }[];
      };
      expect(result.status).toBe('succeeded');
      expect(result.tasks[0].output).toBe('done');
    } finally {
      worker.child.kill('SIGTERM');
      await worker.exited;
    }
    const modules = modulesLoaded(loaded);
    // The control: the preload saw the worker's modules (the SDK's worker and teamrun's own).
    expect(modules.some((m) => m.includes('/@temporalio/worker/'))).toBe(true);
    expect(modules.some((m) => /[/\\]activities[/\\]run-task\.(ts|js)$/.test(m))).toBe(true);
    expect(modules.filter((m) => LOADED_WHEN_NEEDED.some((part) => m.includes(part)))).toEqual([]);
  });
});
