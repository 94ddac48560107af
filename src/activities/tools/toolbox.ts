/**
 * The worker's tools, opened for each attempt (the `ToolboxFactory` an agent's executor gets):
 * its MCP servers (`worker.mcpServers`) and its custom tools (`createWorker({ tools })`). A stdio
 * server is started for the attempt that uses it, with that attempt's `TEAMRUN_*` variables and
 * none of the worker's other variables beyond PATH, HOME, LANG, LC_*, TMPDIR and TZ; its gateway
 * (`TEAMRUN_ATTEMPT_SOCKET`, `TEAMRUN_ATTEMPT_SECRET`) only with `attemptAccess: true`. HTTP servers,
 * and stdio servers set `shared: true` (started once, on first use, without any attempt's
 * variables), are shared by the worker's attempts. Every call carries the attempt's fencing token.
 */
import type { TeamrunConfig } from '../../config/config';
import { ConfigError } from '../../config/errors';
import { attemptAccessProblem, isHttpServer } from '../../config/mcp-servers';
import { RESERVED_TOOL_SERVER, TOOL_NAME_PATTERN, TOOL_SEPARATOR, serverOf } from '../../plan/tool-names';
import { gatewayView, sandboxPrefix } from '../executors/sandbox';
import { BASE_ENV, globMatcher } from '../executors/shell-env';
import { attemptEnv } from '../executors/types';
import { Redactor } from '../redact';
import type { CustomTool } from './define-tool';
import { McpConnection } from './mcp-connection';
import { AttemptTools, type WorkerToolSources } from './attempt-tools';
import type { ToolboxFactory } from './types';

/** The worker's tools: a factory for its attempts, and what to close when the worker stops. */
export interface WorkerTools {
  factory: ToolboxFactory;
  close(): Promise<void>;
}

/**
 * The tools of a worker with this config, environment and custom tools. Refuses (ConfigError) a
 * custom tool whose name does not fit or clashes with an MCP server's, an HTTP server whose header
 * variable is not set, and `attemptAccess` where no attempt's process would hold it (a config given
 * in code skips the schema): better a worker that does not start than one whose agents fail later.
 */
export function workerTools(options: {
  config: TeamrunConfig;
  env: NodeJS.ProcessEnv;
  tools?: Readonly<Record<string, CustomTool>>;
  redactor?: Redactor;
}): WorkerTools {
  const { config, env } = options;
  const servers = config.worker.mcpServers;
  const custom = new Map(Object.entries(options.tools ?? {}));
  for (const name of custom.keys()) checkCustomName(name, servers);
  const passes = globMatcher(BASE_ENV);
  const base: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined && passes(name)) base[name] = value;
  const shared = new Map<string, McpConnection>();
  for (const [server, spec] of Object.entries(servers)) {
    const access = attemptAccessProblem(spec);
    if (access) throw new ConfigError(`worker.mcpServers.${server}.attemptAccess: ${access}`);
    if (!isHttpServer(spec)) {
      if (spec.shared) shared.set(server, McpConnection.stdio(server, spec, { ...base, ...spec.env }).sharedByWorker());
      continue;
    }
    const headers: Record<string, string> = {};
    for (const [header, variable] of Object.entries(spec.headersEnv ?? {})) {
      const value = env[variable];
      if (value === undefined) {
        throw new ConfigError(
          `worker.mcpServers.${server}.headersEnv.${header}: ` +
            `the variable ${variable} is not set in the worker's environment`,
        );
      }
      headers[header] = value;
    }
    shared.set(server, McpConnection.http(server, spec, headers));
  }
  const sources: WorkerToolSources = {
    config,
    custom,
    shared,
    stdio(server, attempt) {
      const spec = servers[server];
      if (!spec || isHttpServer(spec)) return undefined;
      const { access, ...identity } = attempt;
      // Opted in, it may act as the attempt (`teamrun mcp` starts linked runs), as a shell's processes may. Not by
      // default: a filesystem server, or anything from a package, would hold a secret to send and settle with.
      const gateway: Record<string, string> =
        access && spec.attemptAccess === true
          ? { TEAMRUN_ATTEMPT_SOCKET: access.socket, TEAMRUN_ATTEMPT_SECRET: access.secret }
          : {};
      const env = { ...base, ...spec.env, ...attemptEnv(identity), ...gateway };
      // Sandboxed, it sees none of the other attempts' inputs in the worker's gateway directory.
      const sandbox = sandboxPrefix(config.worker.sandbox, spec.cwd ?? process.cwd(), gatewayView(access, []));
      return McpConnection.stdio(server, spec, env, sandbox);
    },
    redactor: options.redactor ?? new Redactor([]),
  };
  return {
    factory: (attempt) => Promise.resolve(new AttemptTools(sources, attempt)),
    close: async () => {
      await Promise.all([...shared.values()].map((connection) => connection.close()));
    },
  };
}

function checkCustomName(name: string, servers: TeamrunConfig['worker']['mcpServers']): void {
  const where = `createWorker({ tools }): "${name}"`;
  if (!TOOL_NAME_PATTERN.test(name)) {
    throw new ConfigError(`${where}: a tool name has letters, digits, "_" and "-", at most 64 characters`);
  }
  const server = serverOf(name);
  if (server === RESERVED_TOOL_SERVER) {
    throw new ConfigError(`${where}: "${RESERVED_TOOL_SERVER}${TOOL_SEPARATOR}" names teamrun's own tools`);
  }
  if (server !== undefined && Object.hasOwn(servers, server)) {
    throw new ConfigError(`${where}: "${server}" is an MCP server of worker.mcpServers; name the tool otherwise`);
  }
}
