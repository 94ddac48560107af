import { describe, expect, it } from 'vitest';
import { workerTools } from '../../src/activities/tools';
import { modelName } from '../../src/activities/tools/mcp-tools';
import { ConfigSchema } from '../../src/config/config';
import type { McpServerConfig } from '../../src/config/mcp-servers';
import { ToolListSchema } from '../../src/plan/tool-names';
import { formatPath } from '../../src/plan/validate';

function configProblems(mcpServers: unknown): string[] {
  const parsed = ConfigSchema.safeParse({ worker: { mcpServers } });
  return parsed.success ? [] : parsed.error.issues.map((i) => `${formatPath(i.path)}: ${i.message}`);
}

describe('worker.mcpServers in teamrun.yaml', () => {
  it('takes a stdio command and a Streamable HTTP URL in the shape MCP clients use', () => {
    const servers = {
      fs: { command: 'npx', args: ['mcp-server-filesystem', '/srv/work'], env: { KEY: 'value' }, cwd: '/srv' },
      search: { url: 'https://mcp.example/mcp', headersEnv: { Authorization: 'SEARCH_TOKEN' } },
    };
    expect(ConfigSchema.parse({ worker: { mcpServers: servers } }).worker.mcpServers).toEqual(servers);
    expect(ConfigSchema.parse({}).worker.mcpServers).toEqual({});
  });

  it('refuses a bad server with the path of what is wrong', () => {
    expect(configProblems({ fs: { command: 'x', url: 'http://a' } })).toEqual([
      'worker.mcpServers.fs: give "command" (stdio) or "url" (Streamable HTTP), not both',
    ]);
    expect(configProblems({ fs: { comand: 'x' } })).toEqual([
      'worker.mcpServers.fs: give "command" (a stdio server) or "url" (a Streamable HTTP server)',
    ]);
    expect(configProblems({ fs: { command: 'x', headersEnv: {} } })).toEqual([
      'worker.mcpServers.fs: Unrecognized key: "headersEnv"',
    ]);
    expect(configProblems({ s: { url: 'file:///etc/passwd' } })).toEqual([
      'worker.mcpServers.s.url: must be an http(s) URL',
    ]);
    expect(configProblems({ s: { url: 'https://a', headersEnv: { Authorization: 'Bearer abc' } } })).toEqual([
      'worker.mcpServers.s.headersEnv.Authorization: must be the name of a variable in the worker environment',
    ]);
    expect(configProblems({ a__b: { command: 'x' } })[0]).toMatch(/^worker\.mcpServers\.a__b: a server name has/);
    expect(configProblems({ teamrun: { command: 'x' } })).toEqual([
      `worker.mcpServers.teamrun: "teamrun" names teamrun's own tools`,
    ]);
    const many = Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`s${i}`, { command: 'x' }]));
    expect(configProblems(many)).toEqual(['worker.mcpServers: at most 32 entries (33 given)']);
  });

  it("gives a stdio server its attempt's gateway only when it says attemptAccess: true, and no other server", () => {
    const parsed = ConfigSchema.parse({
      worker: { mcpServers: { control: { command: 'teamrun', attemptAccess: true }, fs: { command: 'x' } } },
    }).worker.mcpServers;
    expect(parsed.control).toEqual({ command: 'teamrun', attemptAccess: true });
    expect(parsed.fs).toEqual({ command: 'x' });
    const http = "is for a stdio server started for one attempt; an HTTP server is shared by the worker's attempts";
    expect(configProblems({ s: { url: 'https://a/mcp', attemptAccess: true } })).toEqual([
      `worker.mcpServers.s.attemptAccess: ${http}`,
    ]);
    expect(configProblems({ s: { url: 'https://a/mcp', attemptAccess: false } })).toEqual([
      `worker.mcpServers.s.attemptAccess: ${http}`,
    ]);
    expect(configProblems({ c: { command: 'x', shared: true, attemptAccess: true } })).toEqual([
      "worker.mcpServers.c.attemptAccess: is for a stdio server started for one attempt; a shared one serves all the worker's attempts",
    ]);
    expect(configProblems({ c: { command: 'x', attemptAccess: 'yes' } })).toEqual([
      'worker.mcpServers.c.attemptAccess: Invalid input: expected boolean, received string',
    ]);
  });

  it('refuses attemptAccess on an HTTP server in a config given in code too, when the worker is made', () => {
    const config = ConfigSchema.parse({});
    config.worker.mcpServers = { s: { url: 'https://a/mcp', attemptAccess: true } as McpServerConfig };
    expect(() => workerTools({ config, env: {} })).toThrow(
      'worker.mcpServers.s.attemptAccess: is for a stdio server started for one attempt; an HTTP server is shared',
    );
  });
});

describe('tool names', () => {
  it('a task lists tools by name or <server>__*, each once', () => {
    expect(ToolListSchema.safeParse(['fs__read_text_file', 'fs__*', 'notes__save']).success).toBe(true);
    expect(ToolListSchema.safeParse(['fs read']).error?.issues[0].message).toMatch(/^a tool is named/);
    expect(ToolListSchema.safeParse(['fs__*', 'fs__*']).error?.issues[0].message).toBe('a tool is listed twice');
  });

  it('an MCP tool whose name OpenAI refuses gets a fitting one, the same each time', () => {
    expect(modelName('fs', 'read_text_file')).toBe('fs__read_text_file');
    expect(modelName('gh', 'issues.list')).toBe('gh__issues_list');
    const long = modelName('server', 'x'.repeat(100));
    expect(long).toMatch(/^server__x+_[0-9a-f]{6}$/);
    expect(long).toHaveLength(64);
    expect(modelName('server', 'x'.repeat(100))).toBe(long);
    expect(modelName('server', 'x'.repeat(101))).not.toBe(long);
  });
});
