import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { connectClient, startTeamRun, type TeamRunHandle } from '../../src/client';
import { loadConfig } from '../../src/config/config';
import type { TeamPlanInput } from '../../src/plan/schema';
import { loadPlanFile } from '../../src/plan/load';
import { KEY1, codecFixture } from '../helpers/codec';
import { temporalAddress, temporalBinary, testClient, uniqueQueue, waitFor } from '../helpers/env';
import { runForTest, workerForTest, updateCodeOf } from '../helpers/scenario';

const root = path.resolve(__dirname, '..', '..');
/**
 * The worker's environment: a PATH without any `teamrun`, so a task finds only the launcher of its
 * worker's own CLI that the worker puts first on the task's PATH.
 */
const WORKER_ENV = { PATH: '/usr/bin:/bin', HOME: os.homedir() };

/** Polls `teamrun inbox` (from PATH) until a message arrives, then outputs what it read. */
const READ_MAIL =
  'for i in $(seq 1 240); do m=$(teamrun inbox); if [ "$m" != "[]" ]; then ' +
  'echo "::teamrun-output::$m"; exit 0; fi; sleep 0.5; done; exit 1';

function tmpDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-identity-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Waits until `key` holds a lease; its fencing token, as `teamrun claims` shows it to anyone. */
async function tokenOf(handle: TeamRunHandle, key: string): Promise<number> {
  const claim = await waitFor(`${key} to run`, async () =>
    (await handle.query<Array<{ key: string; fencingToken: number }>>('activeClaims')).find((c) => c.key === key),
  );
  return claim.fencingToken;
}

describe('a task speaks to its run as its attempt; a fencing token alone is a person', () => {
  it('a non-operator holding a running task`s token can neither add nor message as it; the task itself can, from PATH', async () => {
    const worker = await workerForTest({ env: WORKER_ENV });
    const go = path.join(tmpDir(), 'go');
    const plan: TeamPlanInput = {
      name: 'attempt-identity',
      teammates: 2,
      governance: { operators: ['alice'] },
      tasks: [
        {
          key: 'spawner',
          allowSpawn: true,
          executor: {
            kind: 'shell',
            timeoutMs: 120_000,
            // Its secret in a message is redacted like any secret the worker knows.
            command:
              `while [ ! -e ${go} ]; do sleep 0.2; done; ` +
              `teamrun add-tasks --tasks '{"tasks":[{"key":"child","executor":{"kind":"noop"}}]}' && ` +
              'teamrun send --to reader "{\\"said\\":\\"by the task\\",\\"secret\\":\\"$TEAMRUN_ATTEMPT_SECRET\\"}"',
          },
        },
        { key: 'reader', executor: { kind: 'shell', timeoutMs: 120_000, command: READ_MAIL } },
      ],
    };
    const handle = await runForTest(plan, worker);
    const fencingToken = await tokenOf(handle, 'spawner');
    const client = await testClient();
    const run = client.workflow.getHandle(handle.workflowId);
    const update = (name: string, request: Record<string, unknown>) =>
      updateCodeOf(run.executeUpdate<unknown, [unknown]>(name, { args: [request] }));
    const evil = { tasks: [{ key: 'evil', executor: { kind: 'noop' } }], parent: 'spawner', fencingToken };

    expect(await update('addTasks', { ...evil, requestId: 'evil-1' })).toBe('forbidden');
    expect(await update('addTasks', { ...evil, requestId: 'evil-2', actor: 'mallory' })).toBe('forbidden');
    expect(await update('sendMessage', { from: 'spawner', fencingToken, to: 'reader', body: 'evil' })).toBe(
      'forbidden',
    );
    // A made-up proof: a queue the worker polls (which knows no confirmation), and one nobody polls.
    for (const queue of [worker.taskQueue, uniqueQueue('nobody')]) {
      const attempt = { queue, nonce: randomBytes(24).toString('base64url') };
      expect(await update('addTasks', { ...evil, requestId: `evil-${queue}`, attempt })).toBe('forbidden');
      expect(await update('sendMessage', { from: 'spawner', fencingToken, to: 'reader', body: 'evil', attempt })).toBe(
        'forbidden',
      );
    }

    writeFileSync(go, '');
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    expect(result.tasks.map((t) => t.key).sort()).toEqual(['child', 'reader', 'spawner']);
    expect(result.tasks.find((t) => t.key === 'child')).toMatchObject({ parent: 'spawner', status: 'succeeded' });
    const reader = result.tasks.find((t) => t.key === 'reader')!;
    expect(reader.output).toEqual([
      expect.objectContaining({
        from: 'spawner',
        to: 'reader',
        body: { said: 'by the task', secret: '[redacted:TEAMRUN_ATTEMPT_SECRET]' },
      }),
    ]);
    const { messages } = await handle.query<{ messages: unknown[] }, [object]>('messages', {});
    expect(messages).toHaveLength(1);
  });

  it('examples/writer-reviewer.yaml: both tasks find `teamrun` on their PATH and talk', async () => {
    const worker = await workerForTest({ env: WORKER_ENV });
    const loaded = loadPlanFile(path.join(root, 'examples', 'writer-reviewer.yaml'));
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems));
    const handle = await runForTest({ ...loaded.plan, name: 'writer-reviewer' } as TeamPlanInput, worker);
    const result = await handle.result();
    expect(result.tasks.map((t) => [t.key, t.status, t.lastError])).toEqual([
      ['writer', 'succeeded', null],
      ['reviewer', 'succeeded', null],
    ]);
    expect(result.tasks[0].output).toEqual({
      received: [expect.objectContaining({ from: 'reviewer', subject: 'review', body: { fix: 'rename foo to bar' } })],
    });
  });
});

describe('an in-task teamrun send under the payload codec', () => {
  const fx = codecFixture();
  afterAll(() => fx.cleanup());

  it('leaves only ciphertext in history, and the task gets its verdict with no stack trace', async () => {
    const config = loadConfig(fx.config('gateway', { currentKeyId: 'k1', keys: [KEY1] }));
    config.connection.address = temporalAddress();
    const worker = await workerForTest({ config, env: WORKER_ENV });
    const client = await connectClient(config);
    onTestFinished(() => client.connection.close());
    const plan: TeamPlanInput = {
      name: 'codec-send',
      teammates: 2,
      tasks: [
        {
          key: 'sender',
          executor: {
            kind: 'shell',
            timeoutMs: 120_000,
            // Everything the command prints, stderr too, must be the verdict's JSON for the output line to parse.
            command:
              `out=$(teamrun send --json --to reader '{"note":"PLAIN-BODY-4b1d"}' 2>&1) || ` +
              '{ echo "$out" >&2; exit 1; }; printf "::teamrun-output::%s\\n" "$(echo "$out" | tr -d "\\n")"',
          },
        },
        { key: 'reader', executor: { kind: 'shell', timeoutMs: 120_000, command: READ_MAIL } },
      ],
    };
    const handle = await startTeamRun(client, plan, { taskQueue: worker.taskQueue, workflowId: uniqueQueue('codec') });
    const result = await handle.result();
    expect(result.tasks.map((t) => [t.key, t.status, t.lastError])).toEqual([
      ['sender', 'succeeded', null],
      ['reader', 'succeeded', null],
    ]);
    expect(result.tasks[0].output).toEqual({ ok: true, id: 1 });
    expect(result.tasks[1].output).toEqual([
      expect.objectContaining({ from: 'sender', body: { note: 'PLAIN-BODY-4b1d' } }),
    ]);

    const { stdout } = await promisify(execFile)(
      temporalBinary(),
      ['workflow', 'show', '-w', handle.workflowId, '-o', 'json', '--address', temporalAddress()],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    const encodings = payloadEncodings(JSON.parse(stdout));
    expect(encodings.length).toBeGreaterThan(10);
    expect(new Set(encodings)).toEqual(new Set(['binary/encrypted']));
    expect(stdout).not.toContain('PLAIN-BODY-4b1d');
  });
});

/**
 * The encoding of every payload of a `temporal workflow show -o json` history but search
 * attributes and the SDK's patch markers (never encoded; a patch marker holds only the patch id).
 */
function payloadEncodings(json: unknown): string[] {
  const out: string[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(walk);
    if (!value || typeof value !== 'object') return;
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'searchAttributes') continue;
      if (key === 'markerRecordedEventAttributes' && (inner as { markerName?: unknown }).markerName === 'core_patch')
        continue;
      if (key === 'metadata' && inner && typeof inner === 'object' && 'encoding' in inner) {
        out.push(Buffer.from(String((inner as { encoding: unknown }).encoding), 'base64').toString('utf8'));
      } else walk(inner);
    }
  };
  walk(json);
  return out;
}
