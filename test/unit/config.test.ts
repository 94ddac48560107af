import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config';

/** The directories configFile made, removed once the file's tests are done. */
const made: string[] = [];
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function configFile(text: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-config-'));
  made.push(dir);
  const file = path.join(dir, 'temporal.yaml');
  writeFileSync(file, text);
  return file;
}

describe('temporal.yaml', () => {
  it('fills defaults when the file leaves things out', () => {
    const config = loadConfig(configFile('connection:\n  taskQueue: nightly\n'), {});
    expect(config.connection).toMatchObject({ address: '127.0.0.1:7233', namespace: 'default', taskQueue: 'nightly' });
    expect(config.worker.executors).toEqual(['shell', 'http', 'llm', 'agent', 'sleep', 'noop', 'agent-cli']);
    expect(config.devServer.dbFile).toBe('.teamrun/dev.db');
  });

  it('lets TEMPORAL_ADDRESS and TEMPORAL_NAMESPACE override the file', () => {
    const config = loadConfig(configFile('connection:\n  address: a:1\n  namespace: n\n'), {
      TEMPORAL_ADDRESS: 'b:2',
      TEMPORAL_NAMESPACE: 'prod',
    });
    expect(config.connection.address).toBe('b:2');
    expect(config.connection.namespace).toBe('prod');
  });

  it.each([
    [
      'worker:\n  executors: [shel, noop]\n',
      'worker.executors[0]: must be one of shell, http, llm, agent, sleep, noop',
    ],
    ['devServer:\n  port: "7233"\n', 'devServer.port'],
    ['prices:\n  gpt-x: { inputPerMTok: -1, outputPerMTok: 1 }\n', 'prices.gpt-x.inputPerMTok'],
    ['connection:\n  adress: x\n', 'connection'],
    ['worker: [', 'not valid YAML'],
  ])('names the field and the problem in a bad config (%j)', (text, expected) => {
    expect(() => loadConfig(configFile(text), {})).toThrow(ConfigError);
    expect(() => loadConfig(configFile(text), {})).toThrow(expected);
  });

  it('says so when an explicitly named file is missing', () => {
    expect(() => loadConfig('/nonexistent/temporal.yaml', {})).toThrow('config file not found');
  });
});
