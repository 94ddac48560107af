/**
 * `worker.mcpServers`: the MCP servers whose tools this worker's agents may call, in the shape MCP
 * clients already use. A stdio server is a command the worker starts for each attempt (or once for
 * all of them, with `shared: true`); a Streamable
 * HTTP server is a URL the worker's attempts share, its header values read from the worker's
 * environment by name (never written in the config, so never in a run's history). Only a stdio
 * server marked `attemptAccess: true` is given its attempt's gateway (`TEAMRUN_ATTEMPT_SOCKET`,
 * `TEAMRUN_ATTEMPT_SECRET`), with which it can act as the attempt: a third-party server is not.
 */
import { z } from 'zod';
import { RESERVED_TOOL_SERVER, SERVER_NAME_PATTERN } from '../plan/tool-names';

export const MCP_CONFIG_LIMITS = {
  servers: 32,
  args: 256,
  argBytes: 4096,
  envVars: 128,
  envValueBytes: 32 * 1024,
  headers: 32,
} as const;

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
// RFC 9110 token characters: anything else would be refused by fetch, later and less clearly.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/;

/** A record of at most `max` entries whose keys match `key`; a bad key is named in the error's path. */
function boundedRecord<T extends z.ZodType>(value: T, max: number, key: RegExp, keyMessage: string) {
  return z.record(z.string(), value).superRefine((record, ctx) => {
    const keys = Object.keys(record);
    if (keys.length > max) ctx.addIssue({ code: 'custom', message: `at most ${max} entries (${keys.length} given)` });
    for (const name of keys.filter((k) => !key.test(k)))
      ctx.addIssue({ code: 'custom', message: keyMessage, path: [name] });
  });
}

const McpStdioServerSchema = z
  .object({
    command: z.string().min(1).max(MCP_CONFIG_LIMITS.argBytes),
    args: z.array(z.string().max(MCP_CONFIG_LIMITS.argBytes)).max(MCP_CONFIG_LIMITS.args).optional(),
    // Literal values, treated as secrets: redacted from everything an attempt reports.
    env: boundedRecord(
      z.string().max(MCP_CONFIG_LIMITS.envValueBytes),
      MCP_CONFIG_LIMITS.envVars,
      VARIABLE_NAME,
      'must be a variable name',
    ).optional(),
    cwd: z.string().min(1).max(MCP_CONFIG_LIMITS.argBytes).optional(),
    // One process for all the worker's attempts (a server safe to share), instead of one per attempt.
    shared: z.boolean().optional(),
    // Its attempt's gateway in its environment: it may act as the attempt (`teamrun mcp` starting linked runs).
    attemptAccess: z.boolean().optional(),
  })
  .strict();

const McpHttpServerSchema = z
  .object({
    url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(MCP_CONFIG_LIMITS.argBytes),
    // Header name -> the worker variable holding its value (`Authorization: SEARCH_TOKEN`).
    headersEnv: boundedRecord(
      z.string().regex(VARIABLE_NAME, 'must be the name of a variable in the worker environment'),
      MCP_CONFIG_LIMITS.headers,
      HEADER_NAME,
      'must be an HTTP header name',
    ).optional(),
  })
  .strict();

export type McpStdioServer = z.infer<typeof McpStdioServerSchema>;
export type McpHttpServer = z.infer<typeof McpHttpServerSchema>;
export type McpServerConfig = McpStdioServer | McpHttpServer;

/**
 * What is wrong with this server's `attemptAccess`, if anything: only a process started for one attempt may hold that
 * attempt's secret. Checked by the schema (teamrun.yaml) and by the worker (a config given in code).
 */
export function attemptAccessProblem(server: Readonly<Record<string, unknown>>): string | undefined {
  if ('url' in server)
    return 'attemptAccess' in server
      ? "is for a stdio server started for one attempt; an HTTP server is shared by the worker's attempts"
      : undefined;
  if (server.attemptAccess === true && server.shared === true)
    return "is for a stdio server started for one attempt; a shared one serves all the worker's attempts";
  return undefined;
}

/** One server: the kind its keys say (`command` or `url`), checked by that kind's schema so errors name its fields. */
const McpServerSchema = z.record(z.string(), z.unknown()).transform((raw, ctx): McpServerConfig => {
  if ('url' in raw && 'command' in raw) {
    ctx.addIssue({ code: 'custom', message: 'give "command" (stdio) or "url" (Streamable HTTP), not both' });
    return z.NEVER;
  }
  if (!('url' in raw) && !('command' in raw)) {
    ctx.addIssue({ code: 'custom', message: 'give "command" (a stdio server) or "url" (a Streamable HTTP server)' });
    return z.NEVER;
  }
  const access = attemptAccessProblem(raw);
  if (access) {
    ctx.addIssue({ code: 'custom', message: access, path: ['attemptAccess'] });
    return z.NEVER;
  }
  const parsed = ('url' in raw ? McpHttpServerSchema : McpStdioServerSchema).safeParse(raw);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  return z.NEVER;
});

export const McpServersSchema = boundedRecord(
  McpServerSchema,
  MCP_CONFIG_LIMITS.servers,
  SERVER_NAME_PATTERN,
  'a server name has letters, digits, "-" and single "_", at most 32 characters',
).superRefine((servers, ctx) => {
  if (Object.hasOwn(servers, RESERVED_TOOL_SERVER))
    ctx.addIssue({
      code: 'custom',
      message: `"${RESERVED_TOOL_SERVER}" names teamrun's own tools`,
      path: [RESERVED_TOOL_SERVER],
    });
});

export function isHttpServer(server: McpServerConfig): server is McpHttpServer {
  return 'url' in server;
}
