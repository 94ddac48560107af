import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startRun, uniqueQueue } from '../helpers/env';
import { spawnTeamrun, teamrun, waitForOutput } from './teamrun-cli';

const claudeStandin = path.resolve(__dirname, '../helpers/agent-clis/claude');
const echoServer = path.resolve(__dirname, '../helpers/mcp-echo-server.mjs');

/** A directory holding `teamrun.yaml` with `worker` as its worker section. */
function configDir(worker: string, taskQueue = uniqueQueue('worker-commands')): { dir: string; file: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-worker-commands-'));
  const file = path.join(dir, 'teamrun.yaml');
  writeFileSync(file, `connection:\n  taskQueue: ${taskQueue}\nworker:\n${worker}`);
  return { dir, file };
}

describe('a worker checks the commands it will start when it starts', () => {
  it('a relative agent CLI command that is not there: the worker does not start, naming the key and the directory', async () => {
    const { dir, file } = configDir('  agentClis:\n    claude-code:\n      command: ./fake-claude.js\n');
    const result = await teamrun(['--config', file, 'worker']);
    expect(result.code).not.toBe(0);
    expect(result.stdout).not.toContain('teamrun worker ready');
    expect(result.stderr).toContain(
      `worker.agentClis.claude-code.command: "./fake-claude.js" not found (relative to ${dir}, the config file's directory)`,
    );
  });

  it('a stdio MCP server command not on PATH, or not executable: the worker does not start, naming the key', async () => {
    const missing = configDir('  mcpServers:\n    fs:\n      command: teamrun-no-such-mcp-server\n');
    const result = await teamrun(['--config', missing.file, 'worker']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(
      `worker.mcpServers.fs.command: "teamrun-no-such-mcp-server" not found on the worker's PATH`,
    );

    const plain = configDir('  mcpServers:\n    echo:\n      command: ./server.mjs\n');
    writeFileSync(path.join(plain.dir, 'server.mjs'), `import '${echoServer}';\n`);
    const notExecutable = await teamrun(['--config', plain.file, 'worker']);
    expect(notExecutable.code).not.toBe(0);
    expect(notExecutable.stderr).toContain(
      `worker.mcpServers.echo.command: "./server.mjs" is not executable (relative to ${plain.dir}, the config file's directory)`,
    );
  });

  it("a relative agent CLI command that is there runs from the config file's directory, whatever the task's cwd", async () => {
    const taskQueue = uniqueQueue('worker-commands-ok');
    const { dir, file } = configDir('  agentClis:\n    claude-code:\n      command: ./fake-claude.js\n', taskQueue);
    const script = path.join(dir, 'fake-claude.js');
    writeFileSync(script, `#!/usr/bin/env node\nrequire(${JSON.stringify(claudeStandin)});\n`);
    chmodSync(script, 0o755);
    const elsewhere = mkdtempSync(path.join(os.tmpdir(), 'teamrun-worker-commands-cwd-'));
    const worker = spawnTeamrun(['--config', file, 'worker']);
    try {
      await waitForOutput(worker, 'teamrun worker ready');
      const handle = await startRun(
        {
          name: 'worker-commands',
          tasks: [{ key: 'code', executor: { kind: 'agent-cli', cli: 'claude-code', prompt: 'go', cwd: elsewhere } }],
        },
        taskQueue,
      );
      const result = await handle.result();
      expect(result.status).toBe('succeeded');
      expect(result.tasks[0].output).toMatchObject({ content: 'Done: a.txt is there.' });
    } finally {
      worker.child.kill('SIGTERM');
      await worker.exited;
    }
  });

  it('with the mock model (`worker.llm.baseUrl: mock`, as `teamrun init agents` writes it), the worker exits on SIGTERM', async () => {
    const { file } = configDir('  llm:\n    baseUrl: mock\n');
    const worker = spawnTeamrun(['--config', file, 'worker']);
    try {
      await waitForOutput(worker, 'teamrun worker ready');
      expect(worker.stderr()).toContain("MOCK MODEL: agents talk to teamrun's scripted mock model");
      worker.child.kill('SIGTERM');
      // Its mock model's server kept the process alive after the worker had stopped.
      const exited = await Promise.race([
        worker.exited,
        new Promise<null>((resolve) => setTimeout(() => resolve(null), 20_000)),
      ]);
      expect(exited, 'the worker still runs 20 s after SIGTERM').not.toBeNull();
      expect(exited?.code).toBe(0);
    } finally {
      worker.child.kill('SIGKILL');
    }
  });
});
