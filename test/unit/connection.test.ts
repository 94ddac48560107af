import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/config/config';
import { connectionOptions } from '../../src/config/connection';

const dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-tls-'));
writeFileSync(path.join(dir, 'client.pem'), 'CERT');
writeFileSync(path.join(dir, 'client.key'), 'KEY');

const config = (connection: Record<string, unknown> = {}) => ({
  ...ConfigSchema.parse({ connection: { address: 'ns.acct.tmprl.cloud:7233', ...connection } }),
  file: path.join(dir, 'temporal.yaml'),
});

describe('connection options for a cluster', () => {
  it.each([
    ['a local server: plain, no key', config(), {}, { address: 'ns.acct.tmprl.cloud:7233' }],
    ['tls: true in the config', config({ tls: true }), {}, { address: 'ns.acct.tmprl.cloud:7233', tls: true }],
    ['TEMPORAL_TLS=true', config(), { TEMPORAL_TLS: 'true' }, { address: 'ns.acct.tmprl.cloud:7233', tls: true }],
    [
      'an API key implies TLS',
      config(),
      { TEMPORAL_API_KEY: 'k' },
      { address: 'ns.acct.tmprl.cloud:7233', tls: true, apiKey: 'k' },
    ],
  ])('%s', (_, cfg, env, expected) => {
    expect(connectionOptions(cfg, env)).toEqual(expected);
  });

  it('reads a client certificate pair relative to the config file (mTLS)', () => {
    const options = connectionOptions(config({ clientCertPath: 'client.pem', clientKeyPath: 'client.key' }), {});
    expect(options.tls).toEqual({ clientCertPair: { crt: Buffer.from('CERT'), key: Buffer.from('KEY') } });
  });

  it('names what is missing when a certificate comes without its key or cannot be read', () => {
    expect(() => connectionOptions(config(), { TEMPORAL_TLS_CLIENT_CERT_PATH: 'client.pem' })).toThrow(
      /needs both its cert and its key/,
    );
    expect(() => connectionOptions(config({ clientCertPath: 'nope.pem', clientKeyPath: 'client.key' }), {})).toThrow(
      /cannot read the TLS client certificate nope\.pem/,
    );
    expect(ConfigSchema.safeParse({ connection: { clientCertPath: 'a.pem' } }).error?.issues[0]).toMatchObject({
      path: ['connection'],
      message: 'give both "clientCertPath" and "clientKeyPath", or neither',
    });
  });
});
