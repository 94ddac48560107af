import { type ChildProcess } from 'node:child_process';
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
}
export interface DevServer {
    address: string;
    uiUrl: string | null;
    namespace: string;
    dbFile: string;
    process: ChildProcess;
    stop(): Promise<void>;
}
/** A free TCP port on loopback, for tests and for `--port 0`. */
export declare function freePort(): Promise<number>;
/**
 * Starts `temporal server start-dev` on a SQLite file with teamrun's search attributes
 * registered, and waits until its frontend answers.
 */
export declare function startDevServer(options?: DevServerOptions): Promise<DevServer>;
