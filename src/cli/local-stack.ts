import net from 'node:net';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { NativeConnection, type LogLevel, type Worker } from '@temporalio/worker';
import type { TeamrunConfig } from '../config/config';
import { connectionOptions, type ConnectionOptions } from '../config/connection';
import { startConfiguredCodecServer, type ConfiguredCodecServer } from '../codec/server';
import { findTemporalBinary } from '../devserver/binary';
import { startDevServer, type DevServer } from '../devserver/server';
import { createWorker } from '../worker/create-worker';
import { installTerminalLogger } from '../worker/log-format';
import { CliError } from '../operator/context';
import { isLocalHost, localWebUi, parseAddress, uiPortFor } from './web-ui';

/**
 * The pieces `teamrun dev` and `teamrun demo` run in one process: an embedded dev server and a
 * worker. Each is started and stopped here, in that order and its reverse.
 */

/** Temporal's runtime logs at this level; the CLI handles Ctrl-C itself (see `onInterrupt`). */
export function installRuntime(level: LogLevel): void {
  installTerminalLogger(level, { shutdownSignals: [] });
}

/** True when a Temporal frontend answers for `namespace` (at `target.address`, with its TLS and key). */
export async function temporalAnswers(
  target: ConnectionOptions,
  namespace: string,
  timeoutMs = 1_500,
): Promise<boolean> {
  let connection: Connection | undefined;
  try {
    connection = await Connection.connect({ ...target, connectTimeout: timeoutMs });
    await connection.withDeadline(Date.now() + timeoutMs, () =>
      connection!.workflowService.describeNamespace({ namespace }),
    );
    return true;
  } catch {
    return false;
  } finally {
    await connection?.close().catch(() => undefined);
  }
}

function portTaken(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(true));
    server.listen(port, host, () => server.close(() => resolve(false)));
  });
}

export interface EmbeddedTarget {
  ip: string;
  port: number;
  uiPort: number;
  address: string;
}

/**
 * Where the embedded server listens: on the port of `connection.address` when that address is
 * local (so `TEMPORAL_ADDRESS=127.0.0.1:17233` moves it), else on `devServer.port`. The Web UI
 * takes `devServer.uiPort` beside the configured port, the dev server's own frontend+1000 otherwise.
 */
export function embeddedTarget(
  config: TeamrunConfig,
  overrides: { port?: number; uiPort?: number } = {},
): EmbeddedTarget {
  const { host, port: addressPort } = parseAddress(config.connection.address);
  const ip = config.devServer.ip;
  const port = overrides.port ?? (isLocalHost(host) ? addressPort : config.devServer.port);
  const uiPort = overrides.uiPort ?? uiPortFor(config, port);
  return { ip, port, uiPort, address: `${ip}:${port}` };
}

/** A config file's relative paths are relative to the file, not to where the command runs. */
function resolveDbFile(config: TeamrunConfig & { file?: string | null }): string {
  const base = config.file ? path.dirname(config.file) : process.cwd();
  return path.resolve(base, config.devServer.dbFile);
}

export async function startEmbeddedServer(
  config: TeamrunConfig & { file?: string | null },
  target: EmbeddedTarget,
  options: { headless?: boolean; uiCodecEndpoint?: string; log: (line: string) => void },
): Promise<DevServer> {
  const moveHint =
    'Choose other ports, e.g. TEMPORAL_ADDRESS=127.0.0.1:17233 (the Web UI then takes 18233), ' +
    'or connection.address and devServer.uiPort in teamrun.yaml.';
  if (await portTaken(target.ip, target.port)) {
    throw new CliError(
      `port ${target.port} on ${target.ip} is in use by a program that does not answer ` +
        `as a Temporal server (namespace ${config.connection.namespace}). ${moveHint}`,
    );
  }
  if (!options.headless && (await portTaken(target.ip, target.uiPort))) {
    throw new CliError(`the Web UI port ${target.uiPort} on ${target.ip} is in use. ${moveHint}`);
  }
  const binary = findTemporalBinary();
  const dbFile = resolveDbFile(config);
  options.log(
    `starting the Temporal dev server on ${target.address} (SQLite ${path.relative(process.cwd(), dbFile) || dbFile})`,
  );
  try {
    return await startDevServer({
      binary,
      ip: target.ip,
      port: target.port,
      uiPort: target.uiPort,
      dbFile,
      namespace: config.connection.namespace,
      headless: options.headless,
      uiCodecEndpoint: options.uiCodecEndpoint,
      detached: true,
      // A `teamrun dev` killed by SIGKILL (or the OOM killer) takes its server with it: left running, the server would
      // hold the port and the SQLite file, and the next `teamrun dev` would refuse to start beside it.
      stopWithParent: true,
    });
  } catch (err) {
    throw new CliError(`the Temporal dev server did not start: ${(err as Error).message}`);
  }
}

export interface LocalWorker {
  worker: Worker;
  /** Resolves when the worker has stopped; rejects if it failed. */
  running: Promise<void>;
  stop(): Promise<void>;
}

/**
 * A worker in this process on the config's queue. `TEAMRUN_WORKFLOW_BUNDLE` skips bundling, as for `teamrun worker`.
 */
export async function startLocalWorker(config: TeamrunConfig, connect: ConnectionOptions): Promise<LocalWorker> {
  const connection = await NativeConnection.connect(connect);
  const bundle = process.env.TEAMRUN_WORKFLOW_BUNDLE;
  let worker: Worker;
  try {
    worker = await createWorker({
      config,
      connection,
      taskQueue: config.connection.taskQueue,
      workflowBundle: bundle ? { codePath: bundle } : undefined,
    });
  } catch (err) {
    await connection.close();
    throw err;
  }
  const running = worker.run();
  running.catch(() => undefined);
  return {
    worker,
    running,
    async stop() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      // A failed worker has said why through `running`; stopping it must still release the rest.
      await running.catch(() => undefined);
      await connection.close();
    },
  };
}

/**
 * Calls `graceful` on the first Ctrl-C (or SIGTERM) and `force` on a second one, so a user who
 * does not want to wait for a clean stop can have a fast one. Returns a function that unhooks.
 */
export function onInterrupt(graceful: () => void, force: () => void): () => void {
  let count = 0;
  const handler = () => {
    count += 1;
    if (count === 1) graceful();
    else force();
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}

/**
 * With `codec.server` in the config, the embedded Web UI decodes payloads through a codec server
 * this process runs (its origins allowed, the token in the endpoint's path: the UI sends no header).
 */
async function startEmbeddedCodecServer(
  config: TeamrunConfig & { file?: string | null },
  target: EmbeddedTarget,
  options: { headless?: boolean; log: (line: string) => void },
): Promise<ConfiguredCodecServer | null> {
  if (!config.codec?.server || options.headless) return null;
  const origins = [
    `http://localhost:${target.uiPort}`,
    `http://127.0.0.1:${target.uiPort}`,
    `http://${target.ip}:${target.uiPort}`,
  ];
  try {
    return await startConfiguredCodecServer(config, { extraOrigins: origins });
  } catch (err) {
    throw new CliError(`the codec server for the Web UI did not start: ${(err as Error).message}`);
  }
}

export interface Stack {
  /** The frontend the worker and the client use. */
  address: string;
  /** How to reach it: plain for the embedded server, whatever TLS or key the environment sets for another. */
  connect: ConnectionOptions;
  /** The Web UI, when the server is local. */
  webUi: string | null;
  /** The server this process started, or null when it found one already running. */
  server: DevServer | null;
  /** With `codec.server` set, the codec server the embedded Web UI decodes payloads through. */
  codecServer: ConfiguredCodecServer | null;
  worker: LocalWorker;
  /** Stops the worker, then the servers this process started. */
  stop(log: (line: string) => void): Promise<void>;
}

export interface StackOptions {
  /** Use a Temporal server that already answers at the configured address (demo) instead of refusing (dev). */
  reuseRunning: boolean;
  port?: number;
  uiPort?: number;
  headless?: boolean;
  log: (line: string) => void;
}

/**
 * Starts the embedded server (unless `reuseRunning` finds one) and a worker. On return,
 * `config.connection.address` is the address both use.
 */
export async function startStack(
  config: TeamrunConfig & { file?: string | null },
  options: StackOptions,
): Promise<Stack> {
  const { host } = parseAddress(config.connection.address);
  const target = embeddedTarget(config, options);
  const existing = options.reuseRunning ? config.connection.address : target.address;
  let server: DevServer | null = null;
  let codecServer: ConfiguredCodecServer | null = null;
  const probe = options.reuseRunning ? connectionOptions(config) : { address: target.address };
  if (await temporalAnswers(probe, config.connection.namespace)) {
    if (!options.reuseRunning) {
      throw new CliError(
        `a Temporal server already answers at ${existing} (another \`teamrun dev\`?). ` +
          'Add a worker to it with `teamrun worker`, or start this one on other ports (--port, --ui-port).',
      );
    }
    options.log(`using the Temporal server that answers at ${existing}`);
  } else if (options.reuseRunning && !isLocalHost(host)) {
    throw new CliError(
      `nothing answers as a Temporal server at ${config.connection.address} (namespace ${config.connection.namespace})`,
    );
  } else {
    codecServer = await startEmbeddedCodecServer(config, target, options);
    try {
      server = await startEmbeddedServer(config, target, { ...options, uiCodecEndpoint: codecServer?.uiEndpoint });
    } catch (err) {
      await codecServer?.close();
      throw err;
    }
    config.connection.address = server.address;
  }
  const connect = server ? { address: server.address } : connectionOptions(config);
  let worker: LocalWorker;
  try {
    options.log(`starting a worker on task queue "${config.connection.taskQueue}"`);
    worker = await startLocalWorker(config, connect);
  } catch (err) {
    await codecServer?.close();
    await server?.stop();
    throw err;
  }
  const webUi = server
    ? options.headless
      ? null
      : `http://localhost:${target.uiPort}`
    : options.uiPort
      ? `http://localhost:${options.uiPort}`
      : localWebUi(config);
  return {
    address: config.connection.address,
    connect,
    webUi,
    server,
    codecServer,
    worker,
    async stop(log) {
      log('stopping the worker');
      try {
        await worker.stop();
      } finally {
        await codecServer?.close();
        if (server) {
          log('stopping the Temporal dev server');
          await server.stop();
        }
      }
    },
  };
}
