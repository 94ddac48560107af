import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { type CustomTool } from '../activities/tools';
import { type Executor } from '../activities/executors';
import { type TeamrunConfig } from '../config/config';
export interface CreateWorkerOptions {
    config?: TeamrunConfig;
    /** Custom executor kinds, by `executor.kind`; enabled on this worker in addition to the config's. */
    executors?: Record<string, Executor>;
    connection?: NativeConnection;
    taskQueue?: string;
    identity?: string;
    /**
     * A pre-built workflow bundle (see `bundleWorkflowCode`); by default the one shipped in the
     * package, or, running from source, the workflows are bundled at start.
     */
    workflowBundle?: WorkerOptions['workflowBundle'];
    env?: NodeJS.ProcessEnv;
    /** More activities on the same worker (the benchmark's bare baseline registers its trivial one here). */
    activities?: WorkerOptions['activities'];
    /** Custom tools for agents (`defineTool`), by the name a task lists them with. */
    tools?: Record<string, CustomTool>;
}
/**
 * A workflow bundle the package build makes (`npm run build`, beside the compiled code):
 * dist/workflow-bundle.js, or with `codec` dist/workflow-bundle-codec.js, which also holds the
 * codec's failure converter (so failures the workflow raises are encrypted too); with `tracing`,
 * `-otel` before `.js`: Temporal's workflow interceptors are in it. Null when running from source,
 * where the workflows are bundled at start.
 */
export declare function prebuiltWorkflowBundle(options?: {
    codec?: boolean;
    tracing?: boolean;
}): string | null;
/** The workflows entry, as source (run with tsx) or compiled. */
export declare function workflowsPath(): string;
/** A Temporal worker that runs `teamRun` workflows and their `runTask` attempts. */
export declare function createWorker(options?: CreateWorkerOptions): Promise<Worker>;
/** Below the fastest pace a plan may ask for (`LEASE_PACE.minHeartbeatEveryMs`). */
export declare const HEARTBEAT_THROTTLE_MS = 200;
