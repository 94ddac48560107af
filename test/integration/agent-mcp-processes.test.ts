import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/config/config';
import { mcpContainment } from '../../src/activities/tools/mcp-guard';
import { startOpenAiServer, type OpenAiServer } from '../helpers/openai-server';
import { spawnWorkerProcess, startRun, testConfig, uniqueQueue, waitFor } from '../helpers/env';
import { alive } from '../helpers/processes';
import { workerForTest } from '../helpers/scenario';

const echoServer = path.resolve(__dirname, '../helpers/mcp-echo-server.mjs');
const usage = { promptTokens: 50, completionTokens: 10 };

/** Pids of the echo servers that wrote `<kind>-<pid>` into `dir`. */
function marked(dir: string, kind: 'started' | 'slow'): number[] {
  return readdirSync(dir)
    .filter((f) => f.startsWith(`${kind}-`))
    .map((f) => Number(f.slice(kind.length + 1)));
}

/** Every live process (zombies aside) whose environment carries `MCP_STARTS_DIR=<dir>`: the servers of one test. */
function processesMarkedWith(dir: string): number[] {
  const needle = `MCP_STARTS_DIR=${dir}\0`;
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'latin1').includes(needle) && alive(pid);
      } catch {
        return false;
      }
    });
}

function procStat(pid: number): { ppid: number; pgrp: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { ppid: Number(f[1]), pgrp: Number(f[2]) };
}

describe('no MCP server process outlives its attempt or its worker', () => {
  let server: OpenAiServer;
  let dir: string;
  beforeAll(async () => {
    server = await startOpenAiServer();
    dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-mcp-processes-'));
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('kill -9 of a worker during a blocked tool call: its stdio MCP server is gone within 5 s', async ({
    onTestFinished,
  }) => {
    expect(mcpContainment()).toBe('pdeathsig');
    const marks = mkdtempSync(path.join(dir, 'kill-'));
    server.script('mcp-kill', (r) =>
      r.turn === 1
        ? { usage, toolCalls: [{ name: 'echo__slow', arguments: { ms: 600_000 } }] }
        : { usage, content: 'x' },
    );
    const config = path.join(dir, 'kill.yaml');
    writeFileSync(
      config,
      // About the host's processes (the server says its pid; the test reads its parent and group from outside):
      // under the worker's default sandbox that pid is its namespace's, so the sandbox is off here.
      `worker:\n  sandbox: { mode: off }\n  llm: { baseUrl: "${server.baseUrl}", apiKeyEnv: TEAMRUN_TEST_AGENT_KEY }\n` +
        `  mcpServers:\n    echo:\n      command: ${JSON.stringify(process.execPath)}\n` +
        `      args: [${JSON.stringify(echoServer)}]\n      env: { MCP_STARTS_DIR: ${JSON.stringify(marks)} }\n`,
    );
    const queue = uniqueQueue('mcp-kill');
    const victim = await spawnWorkerProcess({ taskQueue: queue, identity: 'mcp-victim', config });
    onTestFinished(() => void victim.child.kill('SIGKILL'));
    const handle = await startRun(
      {
        name: 'mcp-kill',
        tasks: [
          {
            key: 'blocked',
            executor: {
              kind: 'agent',
              model: 'mcp-kill',
              prompt: 'Wait',
              tools: ['echo__slow'],
              toolTimeoutMs: 600_000,
            },
          },
        ],
      },
      queue,
    );
    onTestFinished(async () => void (await handle.terminate('test over').catch(() => undefined)));
    const [pid] = await waitFor(
      'the slow call to reach the MCP server',
      () => (marked(marks, 'slow').length ? marked(marks, 'slow') : undefined),
      60_000,
    );
    expect(marked(marks, 'started')).toEqual([pid]);
    // The server runs in a group of its own, under the worker's guard.
    const { ppid, pgrp } = procStat(pid);
    expect(pgrp).toBe(pid);
    expect(procStat(ppid).ppid).toBe(victim.child.pid);
    expect(processesMarkedWith(marks).sort()).toEqual([pid, ppid].sort());

    victim.child.kill('SIGKILL');
    await victim.exited;
    // Waited for, not slept on: the guard's death signal reaches them within a moment of the worker's end.
    await waitFor(
      'the MCP server and its guard to end with the killed worker',
      () => !alive(pid) && !alive(ppid) && processesMarkedWith(marks).length === 0,
      30_000,
    ).catch(() => undefined);
    expect(alive(pid)).toBe(false);
    expect(alive(ppid)).toBe(false);
    expect(processesMarkedWith(marks)).toEqual([]);
  });

  it('a shared stdio server is started once for the attempts of one worker; each call carries its own token', async ({
    onTestFinished,
  }) => {
    const marks = mkdtempSync(path.join(dir, 'shared-'));
    // Each agent calls the server twice (one slow call, so the attempts overlap), then answers.
    server.script('mcp-shared', (r) => {
      if (r.turn === 1) return { usage, toolCalls: [{ name: 'echo__slow', arguments: { ms: 1_500 } }] };
      if (r.turn === 2) return { usage, toolCalls: [{ name: 'echo__echo', arguments: { text: 'hi' } }] };
      return { usage, content: r.messages.at(-1)!.content ?? '' };
    });
    const config = testConfig({
      llm: { baseUrl: server.baseUrl, apiKeyEnv: 'TEAMRUN_TEST_AGENT_KEY' },
      mcpServers: ConfigSchema.parse({
        worker: {
          mcpServers: {
            echo: { command: process.execPath, args: [echoServer], env: { MCP_STARTS_DIR: marks }, shared: true },
          },
        },
      }).worker.mcpServers,
    });
    const worker = await workerForTest({ config }, onTestFinished);
    const agent = (key: string) => ({
      key,
      executor: { kind: 'agent', model: 'mcp-shared', prompt: key, tools: ['echo__slow', 'echo__echo'] },
    });
    const handle = await startRun(
      { name: 'mcp-shared', teammates: 3, tasks: [agent('a'), agent('b'), agent('c')] },
      worker.taskQueue,
    );
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    const started = marked(marks, 'started');
    expect(started).toHaveLength(1);
    expect(marked(marks, 'slow')).toEqual(started);
    type Echo = { meta: Record<string, unknown>; pid: number };
    // Each agent's answer is its last tool result: what the echo server saw of that call.
    const answers = result.tasks.map((t) => JSON.parse((t.output as { content: string }).content) as Echo);
    expect(answers.map((a) => a.pid)).toEqual([started[0], started[0], started[0]]);
    expect(answers.map((a) => a.meta['teamrun/fencingToken']).sort()).toEqual(
      result.tasks.map((t) => t.fencingToken).sort(),
    );
    // Shared: the server holds no attempt's variables.
    expect(readFileSync(`/proc/${started[0]}/environ`, 'latin1')).not.toContain('TEAMRUN_FENCING_TOKEN=');
  });
});
