import { type Client } from '@temporalio/client';
import { CliError } from './context';
/**
 * Why a run did not start, in one line (and the commands that fix it), instead of the SDK's
 * "Failed to start Workflow" and a stack: the run id in use, the namespace without teamrun's
 * search attributes, a plan over the server's payload limit, a server that does not answer.
 */
export declare function startFailure(err: unknown, client: Client, plan: unknown): Promise<CliError>;
