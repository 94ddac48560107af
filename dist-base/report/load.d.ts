import { type Client } from '@temporalio/client';
import { TeamrunError } from '../errors';
import type { RunReport } from './model';
export declare class ReportError extends TeamrunError {
    readonly code: 'not_found';
    constructor(code: 'not_found', message: string);
}
/** Reads a team run's whole history (every run of its continue-as-new chain) and final state into a report. */
export declare function loadRunReport(client: Client, workflowId: string, now?: number, options?: {
    webUi?: string | null;
}): Promise<RunReport>;
/**
 * A run's attempts from its history alone (no query, no worker needed): what `teamrun logs`
 * reads. The report's rules classify each attempt; task states are left out.
 */
export declare function loadRunAttempts(client: Client, workflowId: string): Promise<RunReport>;
