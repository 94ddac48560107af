import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { TLSConfig } from '@temporalio/client';
import { loadConfigData, type ConfigDataSource } from '@temporalio/envconfig';
import type { TeamrunConfig } from './config';
import { ConfigError } from './errors';
import { temporalProfile } from './profile';

/** How long a client waits for the server before saying it cannot reach it. */
export const CONNECT_TIMEOUT_MS = 2_000;

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
export function connectionOptions(
  config: TeamrunConfig & { file?: string | null },
  env: NodeJS.ProcessEnv = process.env,
): ConnectionOptions {
  const { address } = config.connection;
  const profile = temporalProfile(env);
  const base = config.file ? path.dirname(config.file) : process.cwd();
  const certPath = env.TEMPORAL_TLS_CLIENT_CERT_PATH || config.connection.clientCertPath;
  const keyPath = env.TEMPORAL_TLS_CLIENT_KEY_PATH || config.connection.clientKeyPath;
  if (Boolean(certPath) !== Boolean(keyPath)) {
    throw new ConfigError(
      'connection: a TLS client certificate needs both its cert and its ' +
        'key (TEMPORAL_TLS_CLIENT_CERT_PATH and TEMPORAL_TLS_CLIENT_KEY_PATH)',
    );
  }
  const read = (file: string, what: string) => {
    try {
      return readFileSync(path.resolve(base, file));
    } catch (err) {
      throw new ConfigError(`connection: cannot read the TLS client ${what} ${file}: ${(err as Error).message}`);
    }
  };
  const profileTls = profile.tls;
  const fromProfile = (source: ConfigDataSource, what: string) => {
    try {
      return loadConfigData(source);
    } catch (err) {
      throw new ConfigError(
        `connection: cannot read the TLS ${what} of the Temporal profile: ${(err as Error).message}`,
      );
    }
  };
  const clientCertPair =
    certPath && keyPath
      ? { crt: read(certPath, 'certificate'), key: read(keyPath, 'key') }
      : profileTls?.clientCert && profileTls.clientKey
        ? {
            crt: fromProfile(profileTls.clientCert, 'client certificate')!,
            key: fromProfile(profileTls.clientKey, 'client key')!,
          }
        : undefined;
  const serverRootCACertificate = profileTls?.serverCACert
    ? fromProfile(profileTls.serverCACert, 'server CA certificate')
    : undefined;
  const apiKey = profile.apiKey || undefined;
  const tls =
    profileTls?.disabled !== true &&
    (config.connection.tls || profileTls !== undefined || Boolean(apiKey) || Boolean(clientCertPair));
  const details: TLSConfig = {
    ...(clientCertPair ? { clientCertPair } : {}),
    ...(serverRootCACertificate ? { serverRootCACertificate } : {}),
    ...(profileTls?.serverName ? { serverNameOverride: profileTls.serverName } : {}),
  };
  return {
    address,
    ...(tls ? { tls: Object.keys(details).length ? details : true } : {}),
    ...(apiKey ? { apiKey } : {}),
    ...(profile.grpcMeta && Object.keys(profile.grpcMeta).length ? { metadata: profile.grpcMeta } : {}),
  };
}
