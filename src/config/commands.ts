/**
 * The commands a worker starts on its own (`worker.agentClis.<cli>.command`, a stdio
 * `worker.mcpServers.<name>.command`), found when the worker starts: one that is not there is a
 * start error naming its key, not exit 127 for every attempt at run time. Each is replaced by
 * the absolute path found, so what runs is what was checked, whatever directory an attempt runs in.
 *
 * - a bare name (`claude`) is looked up on the worker's PATH;
 * - an absolute path is taken as it is;
 * - a relative path (`./fake-claude.js`, `bin/codex`) is relative to the config file's directory
 *   (the worker's working directory when the config was not read from a file); for an MCP server
 *   that sets `cwd`, relative to that `cwd` (where the server runs; itself relative to the worker's).
 */
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import type { TeamrunConfig } from './config';
import { ConfigError } from './errors';
import { isHttpServer } from './mcp-servers';

/** The directory a config's relative commands start from, and how to name it in an error. */
function baseOf(config: { file?: string | null }, cwd: string): { dir: string; what: string } {
  return config.file
    ? { dir: path.dirname(path.resolve(cwd, config.file)), what: "the config file's directory" }
    : { dir: cwd, what: "the worker's working directory" };
}

/** `config` with each command the worker starts resolved to an absolute path; ConfigError naming the first missing. */
export function resolveWorkerCommands<T extends TeamrunConfig & { file?: string | null }>(
  config: T,
  env: NodeJS.ProcessEnv,
  cwd: string = process.cwd(),
): T {
  const base = baseOf(config, cwd);
  const agentClis = { ...config.worker.agentClis };
  for (const [cli, spec] of Object.entries(agentClis)) {
    if (!spec) continue;
    const command = findCommand(`worker.agentClis.${cli}.command`, spec.command, base, env);
    agentClis[cli as keyof typeof agentClis] = { ...spec, command };
  }
  const mcpServers = { ...config.worker.mcpServers };
  for (const [name, spec] of Object.entries(mcpServers)) {
    if (isHttpServer(spec)) continue;
    const dir = spec.cwd ? { dir: path.resolve(cwd, spec.cwd), what: `worker.mcpServers.${name}.cwd` } : base;
    if (spec.cwd && !isDirectory(dir.dir)) {
      throw new ConfigError(`worker.mcpServers.${name}.cwd: "${spec.cwd}" is not a directory (${dir.dir})`);
    }
    const command = findCommand(`worker.mcpServers.${name}.command`, spec.command, dir, env);
    mcpServers[name] = { ...spec, command, ...(spec.cwd ? { cwd: dir.dir } : {}) };
  }
  return { ...config, worker: { ...config.worker, agentClis, mcpServers } };
}

function findCommand(key: string, command: string, base: { dir: string; what: string }, env: NodeJS.ProcessEnv) {
  if (!command.includes('/')) {
    const dirs = (env.PATH ?? '').split(path.delimiter).filter(Boolean);
    const found = dirs.map((dir) => path.resolve(dir, command)).find(isExecutableFile);
    if (found) return found;
    throw new ConfigError(
      `${key}: "${command}" not found on the worker's PATH (${dirs.join(path.delimiter).slice(0, 500) || 'empty'})`,
    );
  }
  const file = path.resolve(base.dir, command);
  const where = path.isAbsolute(command) ? '' : ` (relative to ${base.dir}, ${base.what})`;
  if (!isFile(file)) throw new ConfigError(`${key}: "${command}" not found${where}`);
  if (!isExecutableFile(file)) throw new ConfigError(`${key}: "${command}" is not executable${where}`);
  return file;
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

function isExecutableFile(file: string): boolean {
  if (!isFile(file)) return false;
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
