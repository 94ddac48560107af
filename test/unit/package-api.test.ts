import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ExecutorError, type ExecutorContext } from '../../src/activities/executors/types';
import { taskStatusOption } from '../../src/cli/commands/inspect';
import { ConfigError, loadConfig } from '../../src/config/config';
import { connectionOptions } from '../../src/config/connection';
import { planJsonSchema } from '../../src/plan/json-schema';
import { BUILTIN_EXECUTOR_SCHEMAS } from '../../src/plan/schema';
import { defineExecutor } from '../../src/worker/define-executor';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'teamrun-api-'));

describe('the config file: teamrun.yaml, and temporal.yaml under its old name', () => {
  const cwd = process.cwd();
  afterEach(() => process.chdir(cwd));

  it('reads teamrun.yaml, and temporal.yaml only when teamrun.yaml is absent', () => {
    const dir = tmp();
    process.chdir(dir);
    writeFileSync('temporal.yaml', 'connection:\n  taskQueue: old-name\n');
    expect(loadConfig(undefined, {})).toMatchObject({
      file: path.join(process.cwd(), 'temporal.yaml'),
      connection: { taskQueue: 'old-name' },
    });
    writeFileSync('teamrun.yaml', 'connection:\n  taskQueue: new-name\n');
    expect(loadConfig(undefined, {})).toMatchObject({
      file: path.join(process.cwd(), 'teamrun.yaml'),
      connection: { taskQueue: 'new-name' },
    });
  });
});

describe('connection profiles, as the temporal CLI reads them (temporal.toml)', () => {
  const dir = tmp();
  const toml = path.join(dir, 'temporal.toml');
  writeFileSync(
    toml,
    [
      '[profile.default]',
      'address = "default-host:7233"',
      'namespace = "default-ns"',
      '[profile.cloud]',
      'address = "acct.tmprl.cloud:7233"',
      'namespace = "prod.acct"',
      'api_key = "cloud-key"',
      '[profile.cloud.grpc_meta]',
      'x-team = "docs"',
    ].join('\n'),
  );
  const withAddress = path.join(dir, 'teamrun.yaml');
  writeFileSync(withAddress, 'connection:\n  address: from-file:7233\n');
  const withoutAddress = path.join(dir, 'queue-only.yaml');
  writeFileSync(withoutAddress, 'connection:\n  taskQueue: q\n');

  it('takes the default profile where teamrun.yaml says nothing, and teamrun.yaml where it does', () => {
    expect(loadConfig(withoutAddress, { TEMPORAL_CONFIG_FILE: toml }).connection).toMatchObject({
      address: 'default-host:7233',
      namespace: 'default-ns',
    });
    expect(loadConfig(withAddress, { TEMPORAL_CONFIG_FILE: toml }).connection).toMatchObject({
      address: 'from-file:7233',
      namespace: 'default-ns',
    });
  });

  it('lets a profile named by TEMPORAL_PROFILE win over the file, and TEMPORAL_ADDRESS over both', () => {
    const env = { TEMPORAL_CONFIG_FILE: toml, TEMPORAL_PROFILE: 'cloud' };
    const config = loadConfig(withAddress, env);
    expect(config.connection).toMatchObject({ address: 'acct.tmprl.cloud:7233', namespace: 'prod.acct' });
    expect(connectionOptions(config, env)).toEqual({
      address: 'acct.tmprl.cloud:7233',
      tls: true,
      apiKey: 'cloud-key',
      metadata: { 'x-team': 'docs' },
    });
    expect(loadConfig(withAddress, { ...env, TEMPORAL_ADDRESS: 'env:1' }).connection.address).toBe('env:1');
  });

  it('names a profile that does not exist', () => {
    expect(() => loadConfig(withAddress, { TEMPORAL_CONFIG_FILE: toml, TEMPORAL_PROFILE: 'staging' })).toThrow(
      ConfigError,
    );
    expect(() => loadConfig(withAddress, { TEMPORAL_CONFIG_FILE: toml, TEMPORAL_PROFILE: 'staging' })).toThrow(
      /profile "staging".*not found/,
    );
  });
});

describe('defineExecutor', () => {
  const ctx = { taskKey: 'greet-1' } as ExecutorContext;
  const greet = defineExecutor(
    z.object({ name: z.string(), times: z.number().int().default(1) }).strict(),
    async (spec) => ({
      output: { greeting: `hello ${spec.name}`.repeat(spec.times) },
    }),
  );

  it('hands run() the spec its schema parsed, without the kind and with defaults filled', async () => {
    expect(await greet({ kind: 'greet', name: 'ada' }, ctx)).toEqual({ output: { greeting: 'hello ada' } });
  });

  it('fails an attempt whose spec the schema refuses, non-retryable, naming each field', async () => {
    const failure = await greet({ kind: 'greet', name: 7, extra: true }, ctx).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(ExecutorError);
    expect(failure).toMatchObject({ nonRetryable: true, type: 'TeamExecutorSpecInvalid' });
    expect((failure as Error).message).toMatch(
      /task "greet-1": invalid "greet" executor spec: executor.name: .*expected string/,
    );
    expect((failure as Error).message).toContain('extra');
  });
});

describe('one word per state', () => {
  it('takes the contract states and the summary words (running, pending) for `tasks --status`', () => {
    expect(taskStatusOption('leased')).toEqual(['leased']);
    expect(taskStatusOption('running')).toEqual(['leased']);
    expect(taskStatusOption('pending')).toEqual(['ready', 'blocked']);
    expect(() => taskStatusOption('done')).toThrow(
      /"done" is not a task status \(blocked, ready, leased, .*pending = ready or blocked/,
    );
  });
});

describe('the plan JSON Schema', () => {
  it('offers each built-in kind with its own fields, and any other name as a custom kind', () => {
    const schema = planJsonSchema() as {
      properties: { tasks: { items: { properties: { executor: { oneOf: Array<Record<string, any>> } } } } };
    };
    const kinds = schema.properties.tasks.items.properties.executor.oneOf;
    const builtins = Object.keys(BUILTIN_EXECUTOR_SCHEMAS);
    expect(builtins).toEqual(expect.arrayContaining(['shell', 'http', 'llm', 'sleep', 'noop']));
    expect(kinds.map((k) => k.properties.kind.const ?? 'custom')).toEqual([...builtins, 'custom']);
    expect(kinds[0].required).toEqual(['kind', 'command']);
    expect(kinds.at(-1)!.properties.kind.not.enum).toEqual(builtins);
  });
});
