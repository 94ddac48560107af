import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineExecutor } from '../../src/activities/executors/define';
import { workerRedactor } from '../../src/activities/secrets';
import { defineTool, workerTools, type Toolbox, type WorkerTools } from '../../src/activities/tools';
import { ConfigSchema, type TeamrunConfig } from '../../src/config/config';
import { FencedStore } from '../../src/fenced';
import { testConfig, waitFor } from '../helpers/env';
import { runForTest, workerForTest } from '../helpers/scenario';

const root = path.resolve(__dirname, '..', '..');
const filesystemServer = path.join(root, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const echoServer = path.join(root, 'test/helpers/mcp-echo-server.mjs');

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The worker's environment in these tests: one variable no tool server should ever see. */
const workerEnv = { ...process.env, WORKER_SECRET: 'worker-secret-value' };

function attempt(fencingToken: number, signal = new AbortController().signal) {
  return {
    workflowId: 'tools-run',
    taskKey: 'agent',
    attempt: fencingToken,
    fencingToken,
    leaseId: 'l',
    holder: 'h',
    signal,
  };
}

function configWith(mcpServers: Record<string, unknown>, sandbox?: { mode: 'off' }): TeamrunConfig {
  return ConfigSchema.parse({ worker: { mcpServers, ...(sandbox && { sandbox }) } });
}

/** Parses an echo result: what the echo server saw of the call and of its environment. */
function echoed(result: { ok: boolean; content?: string }) {
  expect(result.ok).toBe(true);
  return JSON.parse(result.content!) as { meta: Record<string, unknown>; env: Record<string, string>; pid: number };
}

describe('agent tools against real MCP servers', () => {
  let dir: string;
  const open: Array<WorkerTools | Toolbox> = [];
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-tools-'));
  });
  afterEach(async () => {
    for (const one of open.splice(0)) await one.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function toolbox(config: TeamrunConfig, fencingToken = 1, env: NodeJS.ProcessEnv = workerEnv) {
    const tools = workerTools({ config, env, redactor: workerRedactor(config, env) });
    const box = await tools.factory(attempt(fencingToken));
    open.push(box, tools);
    return box;
  }

  it('lists server-filesystem tools as fs__<tool>, reads a file and writes one through it', async () => {
    writeFileSync(path.join(dir, 'notes.txt'), 'the plan is to ship on Friday');
    const box = await toolbox(configWith({ fs: { command: process.execPath, args: [filesystemServer, dir] } }));

    const specs = await box.resolve(['fs__*']);
    const names = specs.map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(['fs__read_text_file', 'fs__write_file', 'fs__list_directory']));
    for (const name of names) expect(name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    const spec = (name: string) => specs.find((s) => s.name === name)!;
    // Annotations: write_file says idempotentHint, edit_file says it is not, read_text_file is read-only.
    expect(spec('fs__write_file').idempotent).toBe(true);
    expect(spec('fs__edit_file').idempotent).toBe(false);
    expect(spec('fs__read_text_file')).toMatchObject({ idempotent: true, parameters: { type: 'object' } });

    const read = await box.call(
      'fs__read_text_file',
      { path: path.join(dir, 'notes.txt') },
      { signal: new AbortController().signal },
    );
    expect(read).toEqual({ ok: true, content: 'the plan is to ship on Friday' });
    const target = path.join(dir, 'summary.md');
    const wrote = await box.call(
      'fs__write_file',
      { path: target, content: '# Ship Friday' },
      { signal: new AbortController().signal },
    );
    expect(wrote.ok).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('# Ship Friday');

    // The server's own refusal (outside its directory) is a tool error, not a throw.
    const outside = await box.call(
      'fs__read_text_file',
      { path: '/etc/hostname' },
      { signal: new AbortController().signal },
    );
    expect(outside).toMatchObject({ ok: false, error: expect.stringContaining('outside allowed directories') });
  });

  it('a name the worker does not have fails resolve with TeamUnknownTool and a did-you-mean', async () => {
    const box = await toolbox(configWith({ fs: { command: process.execPath, args: [filesystemServer, dir] } }));
    await expect(box.resolve(['fs__read_txt_file'])).rejects.toMatchObject({
      type: 'TeamUnknownTool',
      nonRetryable: true,
      message: expect.stringContaining('did you mean "fs__read_text_file"?'),
    });
    await expect(box.resolve(['fss__*'])).rejects.toMatchObject({
      type: 'TeamUnknownTool',
      message: expect.stringContaining('did you mean "fs"?'),
    });
    // A name the model invents is a tool error for the model, not a failure of the attempt.
    await box.resolve(['fs__read_text_file']);
    expect(await box.call('fs__delete_everything', {}, { signal: new AbortController().signal })).toMatchObject({
      ok: false,
      error: expect.stringContaining('unknown tool "fs__delete_everything"'),
    });
  });

  it("the attempt's fencing token reaches a stdio server in _meta and TEAMRUN_FENCING_TOKEN, the worker's secrets do not", async () => {
    const config = configWith({
      echo: {
        command: process.execPath,
        args: [echoServer],
        env: { ECHO_KEY: 'configured-key-1234' },
        attemptAccess: true,
      },
    });
    const tools = workerTools({ config, env: workerEnv, redactor: workerRedactor(config, workerEnv) });
    const access = { socket: '/tmp/gateway.sock', secret: 'attempt-secret-0123456789abcdef', binDir: null };
    const box = await tools.factory({ ...attempt(7), access });
    open.push(box, tools);
    const specs = await box.resolve(['echo__echo', 'echo__dotted_name']);
    expect(specs.map((s) => s.name)).toEqual(['echo__echo', 'echo__dotted_name']);
    const seen = echoed(await box.call('echo__echo', { text: 'hi' }, { signal: new AbortController().signal }));
    expect(seen.meta).toEqual({ 'teamrun/fencingToken': 7 });
    expect(seen.env).toMatchObject({
      TEAMRUN_FENCING_TOKEN: '7',
      TEAMRUN_TASK_KEY: 'agent',
      TEAMRUN_WORKFLOW_ID: 'tools-run',
    });
    expect(seen.env.WORKER_SECRET).toBeUndefined();
    // Opted in (attemptAccess), the attempt's gateway reaches it (a `teamrun mcp` there starts linked runs); its secret
    // never reaches the model.
    expect(seen.env.TEAMRUN_ATTEMPT_SOCKET).toBe('/tmp/gateway.sock');
    expect(seen.env.TEAMRUN_ATTEMPT_SECRET).toBe('[redacted:TEAMRUN_ATTEMPT_SECRET]');
    // The configured value reached the server; what the server says back is redacted, as everything an attempt reports.
    expect(seen.env.ECHO_KEY).toBe('[redacted:echo.ECHO_KEY]');
    // A tool whose MCP name OpenAI would refuse is offered under a fitting name and called by its own.
    expect(await box.call('echo__dotted_name', {}, { signal: new AbortController().signal })).toEqual({
      ok: true,
      content: 'dotted',
    });
  });

  it('a server that dies fails the call in flight and is started again for the next call', async () => {
    // About the server's host pid (it says its pid; the test kills it from outside and tells the restarts apart by
    // it): under the worker's default sandbox every server is pid 2 of a namespace of its own, so the sandbox is off.
    const echo = { echo: { command: process.execPath, args: [echoServer] } };
    const box = await toolbox(configWith(echo, { mode: 'off' }));
    await box.resolve(['echo__*']);
    const signal = new AbortController().signal;
    const first = echoed(await box.call('echo__echo', {}, { signal }));

    const crashed = await box.call('echo__crash', {}, { signal });
    expect(crashed).toMatchObject({
      ok: false,
      error: expect.stringContaining('closed the connection during the call'),
    });
    const second = echoed(await box.call('echo__echo', {}, { signal }));
    expect(second.pid).not.toBe(first.pid);

    // Killed from outside between calls: the next call starts it again too.
    process.kill(second.pid, 'SIGKILL');
    // Gone (reaped) first, however slow the machine; then a moment for the toolbox to see its connection close.
    await waitFor('the killed echo server to be gone', () => !isAlive(second.pid));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const third = echoed(await box.call('echo__echo', {}, { signal }));
    expect(third.pid).not.toBe(second.pid);

    // An error result is { ok: false }; a call past its time is too, and the server lives on.
    expect(await box.call('echo__fail', {}, { signal })).toEqual({ ok: false, error: 'it went wrong' });
    expect(await box.call('echo__slow', { ms: 10_000 }, { signal, timeoutMs: 300 })).toMatchObject({
      ok: false,
      error: expect.stringContaining('did not answer within 300 ms'),
    });
    expect(echoed(await box.call('echo__echo', {}, { signal })).pid).toBe(third.pid);

    // close() stops what the attempt started.
    await box.close();
    expect(await waitFor('the echo server to be gone after close()', () => !isAlive(third.pid))).toBe(true);
  });

  it('a Streamable HTTP server gets its header from the worker environment and the token in _meta', async () => {
    const authorizations: Array<string | undefined> = [];
    const server = http.createServer((req, res) => {
      authorizations.push(req.headers.authorization);
      const mcp = new McpServer({ name: 'remote', version: '1.0.0' });
      mcp.registerTool('whoami', { description: 'What the call carried' }, async (extra) => ({
        content: [
          { type: 'text', text: JSON.stringify({ meta: extra._meta, auth: extra.requestInfo?.headers.authorization }) },
        ],
      }));
      // Stateless: a server and a transport per request, as the SDK's own example does.
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => void transport.close().then(() => mcp.close()));
      void mcp.connect(transport).then(() => transport.handleRequest(req, res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
      const config = configWith({ remote: { url, headersEnv: { Authorization: 'REMOTE_TOKEN' } } });
      const env = { ...workerEnv, REMOTE_TOKEN: 'Bearer remote-secret-42' };
      const box = await toolbox(config, 11, env);
      expect((await box.resolve(['remote__whoami']))[0].name).toBe('remote__whoami');
      const answer = await box.call('remote__whoami', {}, { signal: new AbortController().signal });
      expect(answer.ok).toBe(true);
      const seen = JSON.parse((answer as { content: string }).content) as { meta: unknown; auth: string };
      expect(seen.meta).toEqual({ 'teamrun/fencingToken': 11 });
      // The header reached the server; echoed back, its value is redacted like any worker secret.
      expect(authorizations).toContain('Bearer remote-secret-42');
      expect(seen.auth).toBe('[redacted:REMOTE_TOKEN]');

      expect(() => workerTools({ config, env: workerEnv })).toThrow(
        'worker.mcpServers.remote.headersEnv.Authorization: the variable REMOTE_TOKEN is not set',
      );
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('a custom tool gets the fencing token; writing through teamrun/fenced, a stale attempt is refused', async () => {
    const store = new FencedStore(path.join(dir, 'fence.db'));
    const note = defineTool(
      z.object({ text: z.string().min(1) }).strict(),
      async ({ text }, ctx) => {
        store.write({
          resource: 'summary',
          token: ctx.fencingToken,
          value: text,
          writer: `${ctx.taskKey}#${ctx.attempt}`,
        });
        return { saved: text, token: ctx.fencingToken };
      },
      { description: 'Saves the summary', idempotent: true },
    );
    const config = configWith({});
    const tools = workerTools({ config, env: workerEnv, tools: { notes__save: note } });
    open.push(tools);
    const stale = await tools.factory(attempt(1));
    const current = await tools.factory(attempt(2));
    const signal = new AbortController().signal;
    expect(await stale.resolve(['notes__*'])).toEqual([
      {
        name: 'notes__save',
        description: 'Saves the summary',
        idempotent: true,
        parameters: expect.objectContaining({ type: 'object', required: ['text'] }),
      },
    ]);
    await current.resolve(['notes__save']);

    expect(await current.call('notes__save', { text: 'from attempt 2' }, { signal })).toEqual({
      ok: true,
      content: '{"saved":"from attempt 2","token":2}',
    });
    const refused = await stale.call('notes__save', { text: 'from attempt 1' }, { signal });
    expect(refused).toMatchObject({
      ok: false,
      error: expect.stringContaining('fencing token 1 is older than the highest seen, 2'),
    });
    expect(store.read('summary')).toMatchObject({ token: 2, value: 'from attempt 2' });

    // Arguments the schema refuses go back as a tool error naming the field.
    expect(await current.call('notes__save', { text: 3 }, { signal })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^invalid arguments: text: /),
    });
    store.close();
  });

  it('refuses custom tool names that do not fit or clash, when the worker is made', () => {
    const tool = defineTool(z.object({}), async () => 'ok');
    const config = configWith({ fs: { command: 'true' } });
    expect(() => workerTools({ config, env: {}, tools: { 'bad.name': tool } })).toThrow('"bad.name": a tool name has');
    expect(() => workerTools({ config, env: {}, tools: { fs__extra: tool } })).toThrow('"fs" is an MCP server');
    expect(() => workerTools({ config, env: {}, tools: { teamrun__set_output: tool } })).toThrow("teamrun's own tools");
    expect(() => defineTool(z.string() as never, async () => 'ok')).toThrow('the arguments must be an object');
  });
});

describe('agent tools through a real worker', () => {
  it("an attempt's ExecutorContext opens the worker's tools with that attempt's fencing token", async ({
    onTestFinished,
  }) => {
    // Stands in for the agent loop: resolves its task's tools and calls each once.
    const probe = defineExecutor(z.object({ tools: z.array(z.string()) }), async (spec, ctx) => {
      const box = await ctx.tools!({ ...ctx, signal: ctx.signal });
      try {
        const specs = await box.resolve(spec.tools);
        const answers: Record<string, unknown> = {};
        for (const tool of specs) answers[tool.name] = await box.call(tool.name, {}, { signal: ctx.signal });
        return { output: { fencingToken: ctx.fencingToken, answers } };
      } finally {
        await box.close();
      }
    });
    const token = defineTool(z.object({}), async (_args, ctx) => ({ token: ctx.fencingToken, key: ctx.taskKey }));
    const config = testConfig({ mcpServers: { echo: { command: process.execPath, args: [echoServer] } } });
    const worker = await workerForTest({ config, executors: { probe }, tools: { own__token: token } }, onTestFinished);
    const handle = await runForTest(
      {
        name: 'tool-probe',
        tasks: [
          { key: 'probe', executor: { kind: 'probe', tools: ['echo__echo', 'own__*'] } },
          { key: 'unknown', executor: { kind: 'probe', tools: ['echo__ecko'] } },
        ],
        awaitAdjudication: false,
      },
      worker,
    );
    const result = await handle.result();
    const probeTask = result.tasks.find((t) => t.key === 'probe')!;
    const output = probeTask.output as {
      fencingToken: number;
      answers: Record<string, { ok: boolean; content: string }>;
    };
    expect(JSON.parse(output.answers.echo__echo.content)).toMatchObject({
      meta: { 'teamrun/fencingToken': output.fencingToken },
      env: { TEAMRUN_FENCING_TOKEN: String(output.fencingToken), TEAMRUN_TASK_KEY: 'probe' },
    });
    expect(JSON.parse(output.answers.own__token.content)).toEqual({ token: output.fencingToken, key: 'probe' });
    // The unknown name fails its task at once, not retried, with the did-you-mean.
    expect(result.tasks.find((t) => t.key === 'unknown')).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: expect.stringContaining('MCP server "echo" has no such tool (did you mean "echo__echo"?)'),
    });
  });
});
