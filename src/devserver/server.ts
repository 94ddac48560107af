import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, readFileSync, statSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { SEARCH_ATTRIBUTE_TYPES } from '../workflows/search-attributes';
import { findTemporalBinary, onPath } from './binary';
import { ensurePrivateDir, ensurePrivateFile, restrictDatabase, withPrivateUmask } from './private';

export interface DevServerOptions {
  ip?: string;
  port?: number;
  uiPort?: number;
  /** SQLite file; the run history survives a restart on the same file. */
  dbFile?: string;
  namespace?: string;
  /** More namespaces to create at start (the first is `namespace`). */
  extraNamespaces?: string[];
  /** Register teamrun's search attributes (default true); false gives a plain `temporal server start-dev`. */
  searchAttributes?: boolean;
  headless?: boolean;
  /**
   * Run the server in its own process group, so a Ctrl-C on the terminal reaches only the
   * parent, which can then stop its workers before it stops the server.
   */
  detached?: boolean;
  /** Where the server's own log goes (default: next to the db file). */
  logFile?: string;
  binary?: string;
  startTimeoutMs?: number;
  /** A codec server the Web UI decodes payloads through (`teamrun codec-server`); the browser calls it. */
  uiCodecEndpoint?: string;
  /** More `temporal server start-dev` flags (e.g. `--metrics-port`, `--dynamic-config-value`). */
  extraArgs?: string[];
  /**
   * Stop the server when this process dies, even by SIGKILL (Linux: util-linux's `setpriv --pdeathsig`;
   * elsewhere, or without setpriv, it is left running as before). For test and bench runs, whose server nobody
   * reuses, and `teamrun dev`'s, which its own process stops. Works with `detached` too: the signal follows the
   * parent, not the process group.
   */
  stopWithParent?: boolean;
}

export interface DevServer {
  address: string;
  uiUrl: string | null;
  namespace: string;
  dbFile: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * A free TCP port on loopback, for tests and for `--port 0`, that no other `listen(0)` is handed while it waits to be
 * bound: the port is connected to once and its side closed first, so it sits in TIME_WAIT (a minute on Linux). The
 * kernel gives no port with such a socket to a later bind to port 0, and a listener that sets SO_REUSEADDR (Node's
 * and Go's do, so the Temporal server's) binds it at once. A port merely closed could be handed to any process that
 * asks the kernel for a port before the server starts (a test's server, the dev server's own internal ports).
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    // This side ends first (TIME_WAIT stays with the listening port's socket); the client answers the end by default.
    const server = net.createServer((accepted) => accepted.end());
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      const client = net.connect(port, '127.0.0.1');
      client.on('error', reject);
      client.on('close', () => server.close(() => resolve(port)));
      client.resume();
    });
  });
}

/**
 * Starts `temporal server start-dev` on a SQLite file with teamrun's search attributes
 * registered, and waits until its frontend answers.
 */
export async function startDevServer(options: DevServerOptions = {}): Promise<DevServer> {
  const binary = options.binary ?? findTemporalBinary();
  const ip = options.ip ?? '127.0.0.1';
  const port = options.port ?? 7233;
  const uiPort = options.uiPort ?? 8233;
  const namespace = options.namespace ?? 'default';
  const dbFile = path.resolve(options.dbFile ?? '.teamrun/dev.db');
  ensurePrivateDir(path.dirname(dbFile));
  // A database created before this was 0644: tighten it (the server creates a missing one under umask 077).
  restrictDatabase(dbFile);
  const logFile = options.logFile ?? `${dbFile}.log`;
  ensurePrivateFile(logFile);
  const args = [
    'server',
    'start-dev',
    '--ip',
    ip,
    '--port',
    String(port),
    '--db-filename',
    dbFile,
    ...[namespace, ...(options.extraNamespaces ?? [])].flatMap((ns) => ['--namespace', ns]),
    '--log-level',
    'warn',
    ...(options.searchAttributes === false
      ? []
      : Object.entries(SEARCH_ATTRIBUTE_TYPES).flatMap(([name, type]) => ['--search-attribute', `${name}=${type}`])),
    ...(options.headless ? ['--headless'] : ['--ui-port', String(uiPort), '--ui-ip', ip]),
    ...(options.uiCodecEndpoint && !options.headless ? ['--ui-codec-endpoint', options.uiCodecEndpoint] : []),
    ...(options.extraArgs ?? []),
  ];
  const logStart = statSync(logFile).size;
  const log = openSync(logFile, 'a');
  const [command, commandArgs] = withParentGuard(binary, args, options.stopWithParent ?? false);
  const child = withPrivateUmask(() =>
    spawn(command, commandArgs, { stdio: ['ignore', log, log], detached: options.detached ?? false }),
  );
  // Set by the 'exit' listener; the cast keeps TypeScript from narrowing it to null for good below.
  let exited = null as string | null;
  child.on('exit', (code, signal) => {
    exited = `exit ${code ?? signal}`;
  });
  const address = `${ip}:${port}`;
  const deadline = Date.now() + (options.startTimeoutMs ?? 60_000);
  for (;;) {
    if (exited) {
      throw new Error(
        `temporal server start-dev stopped at start (${exited}); see ${logFile}${lastLines(logFile, logStart)}`,
      );
    }
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1_000 });
      await connection.workflowService.describeNamespace({ namespace });
      await connection.close();
      break;
    } catch (err) {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(
          `temporal dev server at ${address} did not answer in time: ${(err as Error).message}; see ${logFile}`,
        );
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return {
    address,
    uiUrl: options.headless ? null : `http://${ip === '0.0.0.0' ? 'localhost' : ip}:${uiPort}`,
    namespace,
    dbFile,
    process: child,
    stop: () => stopProcess(child),
  };
}

/** The last lines the server wrote to its log from `from` on, to say why it stopped where the log is not at hand. */
function lastLines(logFile: string, from: number): string {
  try {
    const lines = readFileSync(logFile).subarray(from).toString('utf8').trim().split('\n').filter(Boolean);
    return lines.length ? `; it wrote:\n${lines.slice(-5).join('\n').slice(-2_000)}` : '';
  } catch {
    return '';
  }
}

/**
 * The command that runs `binary` and is sent SIGTERM when this process dies. setpriv execs the binary in its own
 * place, so the child's pid is the server's. The kernel ties the signal to the thread that spawned: Node spawns
 * from its main thread, which lives as long as the process.
 */
export function withParentGuard(binary: string, args: string[], guard: boolean): [string, string[]] {
  const setpriv = guard && process.platform === 'linux' ? onPath('setpriv') : null;
  return setpriv ? [setpriv, ['--pdeathsig', 'TERM', '--', binary, ...args]] : [binary, args];
}

async function stopProcess(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}
