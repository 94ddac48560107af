/**
 * The worker's tools, opened for each attempt (the `ToolboxFactory` an agent's executor gets):
 * its MCP servers (`worker.mcpServers`) and its custom tools (`createWorker({ tools })`). A stdio
 * server is started for the attempt that uses it, with that attempt's `TEAMRUN_*` variables and
 * none of the worker's other variables beyond PATH, HOME, LANG, LC_*, TMPDIR and TZ; HTTP servers
 * are shared by the worker's attempts. Every call carries the attempt's fencing token.
 */
import type { TeamrunConfig } from '../../config/config';
import { Redactor } from '../redact';
import type { CustomTool } from './define-tool';
import type { ToolboxFactory } from './types';
/** The worker's tools: a factory for its attempts, and what to close when the worker stops. */
export interface WorkerTools {
    factory: ToolboxFactory;
    close(): Promise<void>;
}
/**
 * The tools of a worker with this config, environment and custom tools. Refuses (ConfigError) a
 * custom tool whose name does not fit or clashes with an MCP server's, and an HTTP server whose
 * header variable is not set: better a worker that does not start than one whose agents fail later.
 */
export declare function workerTools(options: {
    config: TeamrunConfig;
    env: NodeJS.ProcessEnv;
    tools?: Readonly<Record<string, CustomTool>>;
    redactor?: Redactor;
}): WorkerTools;
