import type { Client } from '@temporalio/client';
import type { Command } from 'commander';
import { type TeamrunConfig } from '../config/config';
import { TeamrunError } from '../errors';
/** Options every command shares (declared on the root program). */
export interface GlobalOptions {
    config?: string;
    address?: string;
    namespace?: string;
    taskQueue?: string;
    profile?: string;
}
/** The config, with the command line's global options applied over file and environment. */
export declare function configFrom(command: Command): TeamrunConfig;
/** Runs `fn` with a client for the command's config, closing its connection after, whatever happened. */
export declare function withClient<T>(command: Command, fn: (client: Client, config: TeamrunConfig) => Promise<T>): Promise<T>;
/** An error meant for the user: printed without a stack, exit code 1 unless given. */
export declare class CliError extends TeamrunError {
    readonly exitCode: number;
    readonly code = "cli_error";
    constructor(message: string, exitCode?: number);
}
/**
 * Reads or writes a file the user named: one that cannot be (ENOENT, EACCES, EISDIR, ...) is their
 * error, worded as Node words it. Only Node's system errors are turned; anything else stays a bug.
 */
export declare function userFile<T>(use: () => T): T;
export declare function printJson(value: unknown): void;
