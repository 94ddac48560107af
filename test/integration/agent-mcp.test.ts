import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/config/config';
import { startOpenAiServer } from '../helpers/openai-server';
import { startRun, testConfig } from '../helpers/env';
import { workerForTest } from '../helpers/scenario';

const root = path.resolve(__dirname, '../..');
/** The reference filesystem MCP server, from npm (not written here), run over stdio. */
const filesystemServer = path.join(root, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const KEY_ENV = 'TEAMRUN_TEST_AGENT_KEY';
const usage = { promptTokens: 50, completionTokens: 10 };

describe('an agent with a real MCP server (server-filesystem over stdio)', () => {
  it('reads a file and writes a summary through the server; its output feeds a dependent shell task', async ({
    onTestFinished,
  }) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-agent-fs-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(path.join(dir, 'notes.txt'), 'Ship on Friday. Tests are green. Docs need a pass.');
    const server = await startOpenAiServer();
    onTestFinished(() => server.close());
    // The model: read the notes, write a summary from what the server returned, then answer.
    server.script('fs-agent', (request) => {
      const tools = request.messages.filter((m) => m.role === 'tool').map((m) => m.content ?? '');
      if (request.turn === 1)
        return { usage, toolCalls: [{ name: 'fs__read_text_file', arguments: { path: path.join(dir, 'notes.txt') } }] };
      if (request.turn === 2) {
        const first = tools[0].split('.')[0];
        const summary = `Summary: ${first}.`;
        return {
          usage,
          toolCalls: [{ name: 'fs__write_file', arguments: { path: path.join(dir, 'summary.md'), content: summary } }],
        };
      }
      return { usage, content: 'summary.md written' };
    });
    const config = testConfig({ llm: { baseUrl: server.baseUrl, apiKeyEnv: KEY_ENV } });
    config.worker.mcpServers = ConfigSchema.parse({
      worker: { mcpServers: { fs: { command: process.execPath, args: [filesystemServer, dir] } } },
    }).worker.mcpServers;
    const worker = await workerForTest({ config, env: { [KEY_ENV]: 'sk-agent' } }, onTestFinished);
    const received = path.join(dir, 'received.json');
    const handle = await startRun(
      {
        name: 'agent-fs',
        lease: { ttlMs: 10_000 },
        tasks: [
          {
            key: 'summarize',
            executor: {
              kind: 'agent',
              model: 'fs-agent',
              prompt: `Summarize ${dir}/notes.txt into ${dir}/summary.md`,
              tools: ['fs__read_text_file', 'fs__write_file'],
            },
          },
          // The dependent task reads the agent's output from its inputs, as any shell task does.
          {
            key: 'publish',
            dependsOn: ['summarize'],
            executor: { kind: 'shell', command: `printf '%s' "$TEAMRUN_INPUTS" > ${received}` },
          },
        ],
      },
      worker.taskQueue,
    );
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    // The server wrote the file, with what it had read through the same server.
    expect(readFileSync(path.join(dir, 'summary.md'), 'utf8')).toBe('Summary: Ship on Friday.');
    const sent = server.requests.filter((r) => r.model === 'fs-agent');
    expect(sent.map((r) => r.turn)).toEqual([1, 2, 3]);
    expect(sent[0].tools).toEqual(['fs__read_text_file', 'fs__write_file']);
    expect(sent[1].messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
      'Ship on Friday. Tests are green. Docs need a pass.',
    ]);
    expect(JSON.parse(readFileSync(received, 'utf8'))).toEqual({ summarize: { content: 'summary.md written' } });
    const { events } = await handle.events({ limit: 1000 });
    expect(events.filter((e) => e.type === 'agent:tool').map((e) => [e.tool, e.ok])).toEqual([
      ['fs__read_text_file', true],
      ['fs__write_file', true],
    ]);
  });
});
