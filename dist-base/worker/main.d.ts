import { type TeamrunConfig } from '../config/config';
/**
 * Runs one worker until SIGINT/SIGTERM (Temporal's runtime handles both and shuts down
 * gracefully). `TEAMRUN_WORKFLOW_BUNDLE` points at a pre-built workflow bundle to skip bundling.
 */
export declare function runWorker(options?: {
    taskQueue?: string;
    identity?: string;
    config?: TeamrunConfig;
}): Promise<void>;
