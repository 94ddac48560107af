import { type LogLevel, type Worker } from '@temporalio/worker';
import type { TeamrunConfig } from '../config/config';
import { type ConnectionOptions } from '../config/connection';
import { type ConfiguredCodecServer } from '../codec/server';
import { type DevServer } from '../devserver/server';
/**
 * The pieces `teamrun dev` and `teamrun demo` run in one process: an embedded dev server and a
 * worker. Each is started and stopped here, in that order and its reverse.
 */
/** Temporal's runtime logs at this level; the CLI handles Ctrl-C itself (see `onInterrupt`). */
export declare function installRuntime(level: LogLevel): void;
/** True when a Temporal frontend answers for `namespace` (at `target.address`, with its TLS and key). */
export declare function temporalAnswers(target: ConnectionOptions, namespace: string, timeoutMs?: number): Promise<boolean>;
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
export declare function embeddedTarget(config: TeamrunConfig, overrides?: {
    port?: number;
    uiPort?: number;
}): EmbeddedTarget;
export declare function startEmbeddedServer(config: TeamrunConfig & {
    file?: string | null;
}, target: EmbeddedTarget, options: {
    headless?: boolean;
    uiCodecEndpoint?: string;
    log: (line: string) => void;
}): Promise<DevServer>;
export interface LocalWorker {
    worker: Worker;
    /** Resolves when the worker has stopped; rejects if it failed. */
    running: Promise<void>;
    stop(): Promise<void>;
}
/**
 * A worker in this process on the config's queue. `TEAMRUN_WORKFLOW_BUNDLE` skips bundling, as for `teamrun worker`.
 */
export declare function startLocalWorker(config: TeamrunConfig, connect: ConnectionOptions): Promise<LocalWorker>;
/**
 * Calls `graceful` on the first Ctrl-C (or SIGTERM) and `force` on a second one, so a user who
 * does not want to wait for a clean stop can have a fast one. Returns a function that unhooks.
 */
export declare function onInterrupt(graceful: () => void, force: () => void): () => void;
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
export declare function startStack(config: TeamrunConfig & {
    file?: string | null;
}, options: StackOptions): Promise<Stack>;
