/**
 * The Temporal connection profile, shared by the config loader (config.ts, for the address) and
 * the connection (connection.ts, for the credentials); its own file so neither imports the other.
 */
import { type ClientConfigProfile } from '@temporalio/envconfig';
/**
 * The Temporal connection profile, read as the `temporal` CLI reads it (`@temporalio/envconfig`):
 * the profile `TEMPORAL_PROFILE` names (else `default`) of `temporal.toml` (`TEMPORAL_CONFIG_FILE`,
 * else `~/.config/temporalio/temporal.toml`), with `TEMPORAL_*` variables over it unless `fileOnly`.
 */
export declare function temporalProfile(env?: NodeJS.ProcessEnv, options?: {
    fileOnly?: boolean;
}): ClientConfigProfile;
