/**
 * The Temporal connection profile, shared by the config loader (config.ts, for the address) and
 * the connection (connection.ts, for the credentials); its own file so neither imports the other.
 */
import { loadClientConfigProfile, type ClientConfigProfile } from '@temporalio/envconfig';
import { ConfigError } from './errors';

/**
 * The Temporal connection profile, read as the `temporal` CLI reads it (`@temporalio/envconfig`):
 * the profile `TEMPORAL_PROFILE` names (else `default`) of `temporal.toml` (`TEMPORAL_CONFIG_FILE`,
 * else `~/.config/temporalio/temporal.toml`), with `TEMPORAL_*` variables over it unless `fileOnly`.
 */
export function temporalProfile(
  env: NodeJS.ProcessEnv = process.env,
  options: { fileOnly?: boolean } = {},
): ClientConfigProfile {
  try {
    return loadClientConfigProfile({ overrideEnvVars: definedOnly(env), disableEnv: options.fileOnly });
  } catch (err) {
    const where = env.TEMPORAL_CONFIG_FILE ?? 'temporal.toml';
    throw new ConfigError(
      `${where}${env.TEMPORAL_PROFILE ? ` (profile "${env.TEMPORAL_PROFILE}")` : ''}: ${(err as Error).message}`,
    );
  }
}

function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}
