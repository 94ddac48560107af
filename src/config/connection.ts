import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { TLSConfig } from '@temporalio/common/lib/internal-non-workflow';
import { ConfigError, type TeamrunConfig } from './config';

/** What both `Connection.connect` (clients) and `NativeConnection.connect` (workers) take. */
export interface ConnectionOptions {
  address: string;
  tls?: TLSConfig | boolean;
  apiKey?: string;
}

/**
 * The options to reach the configured cluster. The secrets come from the environment under the
 * temporal CLI's own names, never from the config file: `TEMPORAL_API_KEY` (Temporal Cloud API
 * keys), `TEMPORAL_TLS_CLIENT_CERT_PATH` / `TEMPORAL_TLS_CLIENT_KEY_PATH` (mTLS), `TEMPORAL_TLS=true`.
 */
export function connectionOptions(config: TeamrunConfig & { file?: string | null }, env: NodeJS.ProcessEnv = process.env): ConnectionOptions {
  const { address } = config.connection;
  const base = config.file ? path.dirname(config.file) : process.cwd();
  const certPath = env.TEMPORAL_TLS_CLIENT_CERT_PATH || config.connection.clientCertPath;
  const keyPath = env.TEMPORAL_TLS_CLIENT_KEY_PATH || config.connection.clientKeyPath;
  if (Boolean(certPath) !== Boolean(keyPath)) {
    throw new ConfigError('connection: a TLS client certificate needs both its cert and its key (TEMPORAL_TLS_CLIENT_CERT_PATH and TEMPORAL_TLS_CLIENT_KEY_PATH)');
  }
  const read = (file: string, what: string) => {
    try {
      return readFileSync(path.resolve(base, file));
    } catch (err) {
      throw new ConfigError(`connection: cannot read the TLS client ${what} ${file}: ${(err as Error).message}`);
    }
  };
  const clientCertPair = certPath && keyPath ? { crt: read(certPath, 'certificate'), key: read(keyPath, 'key') } : undefined;
  const apiKey = env.TEMPORAL_API_KEY || undefined;
  const tls = config.connection.tls || env.TEMPORAL_TLS === 'true' || Boolean(apiKey) || Boolean(clientCertPair);
  return {
    address,
    ...(tls ? { tls: clientCertPair ? { clientCertPair } : true } : {}),
    ...(apiKey ? { apiKey } : {}),
  };
}
