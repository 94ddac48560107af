import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { defaultPayloadConverter } from '@temporalio/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AesGcmCodec } from '../../src/codec';
import { connectClient, startTeamRun, teamRunHandle, type TeamRunHandle } from '../../src/client';
import { loadConfig, type TeamrunConfig } from '../../src/config/config';
import { spawnTeamrun, teamrun, waitForOutput, type CliProcess } from '../cli/teamrun-cli';
import { KEY1, KEY2, codecFixture, keyIdsIn, readableStrings, type CodecFixture } from '../helpers/codec';
import {
  startTestWorker,
  temporalAddress,
  temporalBinary,
  uniqueQueue,
  waitFor,
  type TestWorker,
} from '../helpers/env';
import { claimOf, waitForStatus } from './takeover-helpers';

const exec = promisify(execFile);

/** What the plan and its run put into history, each literal only where it is meant to be. */
const SECRET = {
  title: 'TITLE-PLAIN-7c1e',
  command: 'CMD-PLAIN-5d2a',
  output: 'OUTA-OUTB', // printed from two halves, so it exists only as the task's output
  failure: 'FAILTAIL-42-x', // computed by the shell, so it exists only in the failure
  interruption: 'WHY-PLAIN-9f0b',
  decision: 'DECIDE-PLAIN-3e4c',
};

const plan = (name: string, keyFile: string) => ({
  name,
  tasks: [
    // A task that reads the codec's key file and prints it: the worker redacts the key it knows.
    {
      key: 'peek',
      executor: { kind: 'shell', command: `printf '::teamrun-output::"%s"\\n' "$(tr -d '\\n' < ${keyFile})"` },
    },
    {
      key: 'out',
      title: SECRET.title,
      executor: { kind: 'shell', command: `printf '::teamrun-output::"%s-%s"\\n' OUTA OUTB` },
    },
    {
      key: 'fail',
      retry: { maxAttempts: 1 },
      executor: { kind: 'shell', command: 'echo "FAILTAIL-$((6*7))-x" >&2; exit 3' },
    },
    { key: 'hold', executor: { kind: 'shell', command: `exec sleep 600 # ${SECRET.command}` } },
  ],
});

/** `temporal workflow show -o json`, raw (no codec) unless given codec flags. */
async function show(workflowId: string, ...flags: string[]): Promise<unknown> {
  const { stdout } = await exec(
    temporalBinary(),
    ['workflow', 'show', '-w', workflowId, '-o', 'json', '--address', temporalAddress(), ...flags],
    {
      maxBuffer: 64 * 1024 * 1024,
      timeout: 30_000,
    },
  );
  return JSON.parse(stdout);
}

const plaintextIn = (json: unknown) => {
  const strings = readableStrings(json);
  return Object.values(SECRET).filter((literal) => strings.some((s) => s.includes(literal)));
};

describe('a team run with the payload codec on', () => {
  let fx: CodecFixture;
  let c1: string; // key 1 only, current
  let c2: string; // keys 1 and 2, key 2 current (after rotation)
  let only2: string; // key 2 only: key 1 retired too early
  let noCodec: string;
  let worker: TestWorker | undefined;
  let handle: TeamRunHandle;
  let server: CliProcess | undefined;
  let endpoint = '';
  const queue = uniqueQueue('codec');
  const cli = (config: string, ...args: string[]) => teamrun([...args], { ...fx.env, TEAMRUN_CONFIG: config }, 60_000);
  const configOf = (file: string): TeamrunConfig => {
    const config = loadConfig(file);
    config.connection.address = temporalAddress();
    config.connection.taskQueue = queue;
    return config;
  };

  beforeAll(async () => {
    fx = codecFixture();
    Object.assign(process.env, fx.env); // the in-process workers and clients read key 2 from here
    const server = { port: 0, tokenEnv: 'TEAMRUN_TEST_CODEC_TOKEN', corsOrigins: ['http://localhost:8233'] };
    c1 = fx.config('c1', { currentKeyId: 'k1', keys: [KEY1], server });
    c2 = fx.config('c2', { currentKeyId: 'k2', keys: [KEY1, KEY2], server });
    only2 = fx.config('only2', { currentKeyId: 'k2', keys: [KEY2] });
    noCodec = fx.config('none', undefined as never);

    // Before rotation: a worker and a client with key 1 start the run; an operator takes `hold` over.
    worker = await startTestWorker({ config: configOf(c1), taskQueue: queue });
    const client1 = await connectClient(configOf(c1));
    handle = await startTeamRun(client1, plan(`codec-${queue}`, path.join(fx.dir, 'k1.key')), {
      taskQueue: queue,
      workflowId: `codec-${queue}`,
    });
    await waitForStatus(handle, 'out', 'succeeded');
    await waitForStatus(handle, 'fail', 'failed');
    await claimOf(handle, 'hold');
    const interrupted = await cli(
      c1,
      'interrupt',
      handle.workflowId,
      'hold',
      '--actor',
      'alice',
      '--reason',
      SECRET.interruption,
    );
    expect(interrupted).toMatchObject({ code: 0 });
    await waitForStatus(handle, 'hold', 'adjudication');
    await worker.stop();
    await client1.connection.close();

    // Rotation: key 2 becomes current; key 1 stays known. The new worker carries the open run on.
    worker = await startTestWorker({ config: configOf(c2), taskQueue: queue });
    const decided = await cli(
      c2,
      'adjudicate',
      handle.workflowId,
      'hold',
      '--reject',
      '--actor',
      'alice',
      '--reason',
      SECRET.decision,
    );
    expect(decided).toMatchObject({ code: 0 });
    const client2 = await connectClient(configOf(c2));
    try {
      const result = await teamRunHandle(client2, handle.workflowId).result();
      expect(result.tasks.map((t) => [t.key, t.status, t.output ?? null])).toEqual([
        ['peek', 'succeeded', '[redacted:CODEC_KEY_k1]'],
        ['out', 'succeeded', SECRET.output],
        ['fail', 'failed', null],
        ['hold', 'failed', null],
      ]);
    } finally {
      await client2.connection.close();
    }
  });

  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
    await worker?.stop();
    fx?.cleanup();
  });

  it('leaves no plan field, output, failure, or message in plaintext in `temporal workflow show`, and names both keys', async () => {
    const raw = await show(handle.workflowId);
    expect(plaintextIn(raw)).toEqual([]);
    // The payloads are there, encrypted: before the rotation under k1, after it under k2.
    expect(keyIdsIn(raw)).toEqual(new Set(['k1', 'k2']));
    // What Temporal indexes stays readable by design: the search attributes, which carry the
    // plan's name, the run state and two counts, nothing from a task.
    const indexed = new Set<string>();
    const walk = (value: unknown): void => {
      if (!value || typeof value !== 'object') return;
      const fields = (value as { searchAttributes?: { indexedFields?: Record<string, unknown> } }).searchAttributes
        ?.indexedFields;
      Object.keys(fields ?? {}).forEach((name) => indexed.add(name));
      Object.values(value).forEach(walk);
    };
    walk(raw);
    // TemporalChangeVersion: the SDK's own record of the patches a run took (patch ids, nothing of the plan).
    expect([...indexed].sort()).toEqual([
      'TeamName',
      'TeamRunBudgetStopped',
      'TeamRunPendingAdjudications',
      'TeamRunStatus',
      'TemporalChangeVersion',
    ]);
  });

  it('lets `teamrun status`, `tasks` and `report` read the run through the codec, after the rotation', async () => {
    const status = await cli(c2, 'status', handle.workflowId);
    expect(status).toMatchObject({ code: 0, stdout: expect.stringContaining('failed') });
    const tasks = await cli(c2, 'tasks', handle.workflowId);
    expect(tasks.code).toBe(0);
    expect(tasks.stdout).toContain(SECRET.output);
    expect(tasks.stdout).toContain(SECRET.failure);
    const report = await cli(c2, 'report', handle.workflowId, '--json');
    expect(report.code).toBe(0);
    for (const literal of [SECRET.title, SECRET.failure, SECRET.interruption, SECRET.decision]) {
      expect(report.stdout).toContain(literal);
    }
  });

  it('cannot be read without the codec, nor with key 1 retired, and says which key is missing', async () => {
    // Without a codec: one line naming what is missing, no stack (was `ValueError: Unknown encoding`).
    for (const command of ['tasks', 'status', 'report']) {
      const plain = await cli(noCodec, command, handle.workflowId);
      expect(plain, command).toMatchObject({ code: 1, stdout: '' });
      expect(plain.stderr, command).toMatch(
        /^teamrun: this run's payloads are encrypted \(binary\/encrypted\) and .*has no `codec:` section.*\n$/,
      );
      expect(plain.stderr.trim().split('\n'), command).toHaveLength(1);
    }
    const retired = await cli(only2, 'report', handle.workflowId);
    expect(retired.code).not.toBe(0);
    expect(retired.stderr).toContain('encrypted with key id "k1", which this process does not have (it knows k2)');
    const unset = await teamrun(['status', handle.workflowId], {
      ...fx.env,
      TEAMRUN_TEST_CODEC_K2: '',
      TEAMRUN_CONFIG: c2,
    });
    expect(unset).toMatchObject({
      code: 1,
      stderr: 'teamrun: codec.keys "k2": the environment variable TEAMRUN_TEST_CODEC_K2 is not set\n',
    });
  });

  describe('through `teamrun codec-server`', () => {
    beforeAll(async () => {
      server = spawnTeamrun(['codec-server', '--port', '0'], { ...fx.env, TEAMRUN_CONFIG: c2 });
      await waitForOutput(server, 'listening on http://');
      endpoint = /listening on (http:\/\/\S+)/.exec(server.stdout())![1];
    });

    it('decodes the whole history for `temporal workflow show --codec-endpoint --codec-auth`', async () => {
      const decoded = await show(handle.workflowId, '--codec-endpoint', endpoint, '--codec-auth', `Bearer ${fx.token}`);
      expect(plaintextIn(decoded)).toEqual(Object.values(SECRET));
      expect(keyIdsIn(decoded)).toEqual(new Set());
      // The key a task printed is not there even decoded.
      const key = readFileSync(path.join(fx.dir, 'k1.key'), 'utf8').trim();
      expect(readableStrings(decoded).some((s) => s.includes(key))).toBe(false);
      expect(readableStrings(decoded).some((s) => s.includes('"output":"[redacted:CODEC_KEY_k1]"'))).toBe(true);
    });

    it('refuses a request without the token or with a wrong one (401), and logs neither payloads nor tokens', async () => {
      const body = JSON.stringify({ payloads: [] });
      const post = (headers: Record<string, string>, route = '/decode') =>
        fetch(`${endpoint}${route}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Namespace': 'default', ...headers },
          body,
        });
      expect((await post({})).status).toBe(401);
      expect((await post({ Authorization: 'Bearer not-the-token-at-all' })).status).toBe(401);
      expect((await post({}, '/t/not-the-token-at-all/decode')).status).toBe(401);
      expect(await (await post({ Authorization: `Bearer ${fx.token}` })).json()).toEqual({ payloads: [] });
      expect((await post({}, `/t/${fx.token}/decode`)).status).toBe(200);
      const wrongNamespace = await post({ Authorization: `Bearer ${fx.token}`, 'X-Namespace': 'other' });
      expect(wrongNamespace.status).toBe(403);
      await waitFor('the request log', () => server!.stderr().includes('POST /t/***/decode 200'));
      expect(server!.stderr()).not.toContain(fx.token);
    });

    it('logs no token whatever the path: a 404 under /t/<token>/, and answers the trailing-slash forms a UI endpoint produces', async () => {
      const post = (route: string) =>
        fetch(`${endpoint}${route}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Namespace': 'default' },
          body: JSON.stringify({ payloads: [] }),
        });
      // A Web UI endpoint configured with a trailing slash, and one with the route doubled.
      expect((await post(`/t/${fx.token}//decode`)).status).toBe(200);
      expect((await post(`/t/${fx.token}/decode/`)).status).toBe(200);
      for (const route of [
        `/t/${fx.token}/decode/decode`,
        `/t/${fx.token}/`,
        `/x/${fx.token}/decode`,
        `/${fx.token}`,
      ]) {
        expect((await post(route)).status, route).toBe(404);
      }
      await waitFor('the 404 lines', () => server!.stderr().includes('POST /x/***/decode 404'));
      expect(server!.stderr()).toContain('POST /t/***/decode/decode 404');
      expect(server!.stderr()).toContain('POST /t/***//decode 200');
      expect(server!.stderr()).not.toContain(fx.token);
    });

    it('refuses malformed requests with a reason, and a payload under an unknown key with its code', async () => {
      const post = (body: string) =>
        fetch(`${endpoint}/decode`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${fx.token}`, 'Content-Type': 'application/json' },
          body,
        });
      expect(await (await post('{not json')).json()).toEqual({ code: 'bad-request', message: 'the body is not JSON' });
      expect(await (await post('{"payload": []}')).json()).toEqual({
        code: 'bad-request',
        message: 'the body has no "payloads" array',
      });
      expect(await (await post('{"payloads": [{"metadata": {"encoding": 7}}]}')).json()).toEqual({
        code: 'bad-request',
        message: 'payloads[0].metadata.encoding is not a base64 string',
      });
      expect((await post(`{"payloads": ["${'A'.repeat(17 * 1024 * 1024)}"]}`)).status).toBe(413);
      const [foreign] = await new AesGcmCodec(new Map([['k9', randomBytes(32)]]), 'k9').encode([
        defaultPayloadConverter.toPayload('x')!,
      ]);
      const b64 = (bytes: Uint8Array | null | undefined) => Buffer.from(bytes ?? []).toString('base64');
      const unknown = await post(
        JSON.stringify({
          payloads: [
            {
              metadata: Object.fromEntries(Object.entries(foreign.metadata!).map(([k, v]) => [k, b64(v)])),
              data: b64(foreign.data),
            },
          ],
        }),
      );
      expect(unknown.status).toBe(422);
      expect(await unknown.json()).toMatchObject({
        code: 'codec-unknown-key',
        message: expect.stringContaining('key id "k9"'),
      });
    });

    it('answers a browser only from the configured Web UI origin (CORS)', async () => {
      const preflight = (origin: string) =>
        fetch(`${endpoint}/decode`, {
          method: 'OPTIONS',
          headers: {
            Origin: origin,
            'Access-Control-Request-Method': 'POST',
            'Access-Control-Request-Headers': 'content-type,x-namespace',
          },
        });
      const allowed = await preflight('http://localhost:8233');
      expect(allowed.status).toBe(204);
      expect(allowed.headers.get('access-control-allow-origin')).toBe('http://localhost:8233');
      expect(allowed.headers.get('access-control-allow-headers')).toContain('X-Namespace');
      const other = await preflight('http://evil.example');
      expect(other.status).toBe(403);
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
    });

    it('makes a wrong token fail `temporal workflow show` instead of showing anything decoded', async () => {
      const attempt = await show(
        handle.workflowId,
        '--codec-endpoint',
        endpoint,
        '--codec-auth',
        'Bearer wrong-token-0123456789',
      ).then(
        (json) => ({ ok: true, json }),
        (err: Error) => ({ ok: false, json: err.message }),
      );
      expect(plaintextIn(attempt.json)).toEqual([]);
    });
  });
});
