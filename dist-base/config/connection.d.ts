import type { TLSConfig } from '@temporalio/client';
import type { TeamrunConfig } from './config';
/** How long a client waits for the server before saying it cannot reach it. */
export declare const CONNECT_TIMEOUT_MS = 2000;
/** What both `Connection.connect` (clients) and `NativeConnection.connect` (workers) take. */
export interface ConnectionOptions {
    address: string;
    tls?: TLSConfig | boolean;
    apiKey?: string;
    metadata?: Record<string, string>;
}
/**
 * The options to reach the configured cluster: the address of `config.connection` (which
 * `loadConfig` took from flags, variables, the profile or the config file), and the credentials
 * of the Temporal profile and variables (`TEMPORAL_API_KEY`, `TEMPORAL_TLS*`, `TEMPORAL_GRPC_META_*`),
 * never from teamrun's config file (which may name certificate files, not hold secrets).
 */
export declare function connectionOptions(config: TeamrunConfig & {
    file?: string | null;
}, env?: NodeJS.ProcessEnv): ConnectionOptions;
