import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { Executor } from '../../src/activities/executors';
import { workerSecrets } from '../../src/activities/secrets';
import * as msg from '../../src/workflows/messages';
import { spawnWorkerProcess, startRun, testConfig, uniqueQueue, waitFor } from '../helpers/env';
import { startOpenAiServer } from '../helpers/openai-server';
import { runForTest, workerForTest } from '../helpers/scenario';
import { workflowTaskFailures } from './corpus';
import { attemptReports, tempDir, temporalDescribe, temporalShow } from './executors-helpers';

const GITHUB_TOKEN = 'ghp_SECRETgithubTOKEN0123456789abcdefXYZ';
const OPENAI_API_KEY = 'sk-SECRET-OPENAI-9876543210zyxwvuTSR';
const DB_PASSWORD = 'hunter2';
const SECRETS = { GITHUB_TOKEN, OPENAI_API_KEY, DB_PASSWORD };

/** Every form of every secret the corpus prints, that must appear nowhere. */
function leakForms(): string[] {
  return Object.values(SECRETS).flatMap((s) => [
    s,
    Buffer.from(s).toString('base64').slice(0, -2),
    Buffer.from(s).toString('hex'),
    // A piece long enough to be a leak: the first and last 16 characters of the long ones.
    ...(s.length > 20 ? [s.slice(0, 16), s.slice(-16)] : []),
  ]);
}

/** The text and every base64 string in it decoded (payloads in `temporal workflow show -o json` may be base64). */
function withDecodedPayloads(text: string): string {
  const decoded = [...text.matchAll(/"([A-Za-z0-9+/]{16,}={0,2})"/g)].map((m) =>
    Buffer.from(m[1], 'base64').toString('utf8'),
  );
  return [text, ...decoded].join('\n');
}

function expectNoLeak(where: string, text: string): void {
  const haystack = withDecodedPayloads(text);
  for (const form of leakForms()) {
    if (haystack.includes(form))
      throw new Error(
        `${where} leaks "${form}" at: ...${haystack.slice(Math.max(0, haystack.indexOf(form) - 120), haystack.indexOf(form) + 40)}...`,
      );
  }
}

const shell = (command: string, extra: object = {}) => ({
  kind: 'shell',
  command,
  env: { GH: { fromWorkerEnv: 'GITHUB_TOKEN' } },
  ...extra,
});

describe('secrets stay out of history and the worker log: a corpus of ways a task tries to leak them', () => {
  it('redacts every secret the worker knows, in every form the corpus prints it, from history and from the worker log', async () => {
    // An http service whose error page gives away the database password, and an llm provider that echoes the key.
    const leaky = createServer((_, res) =>
      res.writeHead(500).end(`internal error: db-password=${DB_PASSWORD} host=db1`),
    );
    await new Promise<void>((resolve) => leaky.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => void leaky.close());
    const llm = await startOpenAiServer();
    onTestFinished(() => llm.close());
    // The key is split by the 500-character cut of the error excerpt unless redaction comes first.
    llm.model('echo-key', { status: 400, body: (r) => ({ error: `${'x'.repeat(465)} you sent ${r.authorization}` }) });

    const dir = tempDir();
    const config = path.join(dir, 'worker.yaml');
    writeFileSync(
      config,
      [
        'worker:',
        '  shutdownGraceMs: 500',
        '  shell: { killGraceMs: 1000, secretEnv: [GITHUB_TOKEN] }',
        "  http: { allowHosts: ['127.0.0.1'] }",
        `  llm: { baseUrl: '${llm.baseUrl}', apiKeyEnv: OPENAI_API_KEY }`,
        '  redact: { env: [DB_PASSWORD] }',
      ].join('\n'),
    );
    const taskQueue = uniqueQueue('secrets');
    const worker = await spawnWorkerProcess({ taskQueue, identity: 'secrets-worker', config, env: SECRETS });
    onTestFinished(() => {
      worker.child.kill('SIGKILL');
    });

    const leakyUrl = `http://127.0.0.1:${(leaky.address() as AddressInfo).port}/report`;
    const corpus = {
      // 1. the whole environment, as is and base64-encoded in one piece
      'env-dump': shell('env; env | base64 -w0; echo'),
      // 2. the secret in the error text of a failing command
      'error-text': shell('echo "auth failed for token $GH" >&2; exit 1'),
      // 3. the secret in a ::teamrun-error:: message
      'error-line': shell('echo "::teamrun-error::{\\"message\\":\\"bad credentials $GH\\"}"; exit 1'),
      // 4. split across the 4096-byte log tail and the 1000-character error cut
      'split-tail': shell(
        `head -c 4075 /dev/zero | tr '\\0' x; printf %s "$GH"; head -c 4 /dev/zero | tr '\\0' y; echo; exit 1`,
      ),
      'split-message': shell(`printf %s "$GH"; head -c 985 /dev/zero | tr '\\0' z; echo; exit 1`),
      // 5. base64, hex and URL-encoded
      encoded: shell(
        'printf %s "$GH" | base64; printf "prefix-%s" "$GH" | base64 -w0; echo; printf %s "$GH" | od -An -tx1 | tr -d " \\n"; echo; node -e "console.log(encodeURIComponent(process.env.GH))"',
      ),
      // 6. the secret as a key (and a value) of the output JSON
      'output-keys': shell('echo "::teamrun-output::{\\"$GH\\":{\\"nested\\":[\\"$GH\\"]}}"'),
      // 7. the secret as the model of a usage line
      'usage-model': shell('echo "::teamrun-usage::{\\"inputTokens\\":1,\\"model\\":\\"$GH\\"}"'),
      // 8. stderr of a task that succeeds
      stderr: shell('echo "debug: using $GH" >&2'),
      // 9. the stdout log tail of a task that succeeds, and a printed link
      'log-tail': shell(
        'echo "token=$GH"; echo "::teamrun-link::{\\"url\\":\\"https://ci.example/?t=$GH\\",\\"label\\":\\"run $GH\\"}"',
      ),
      // 10. an http error body with the database password
      'http-error-body': { kind: 'http', url: leakyUrl },
      // 11. the llm provider's error body quoting the key, cut at 500 characters
      'llm-error': { kind: 'llm', model: 'echo-key', prompt: 'hello' },
      // 12. a worker secret the task was never given: the environment is an allowlist
      'not-given': {
        kind: 'shell',
        command:
          'echo "openai=${OPENAI_API_KEY:-absent} db=${DB_PASSWORD:-absent}"; echo "::teamrun-output::\\"$(env | cut -d= -f1 | sort | tr "\\n" " ")\\""',
      },
    };
    const handle = await startRun(
      {
        name: 'secret-leaks',
        teammates: 4,
        retry: { maxAttempts: 1 },
        tasks: Object.entries(corpus).map(([key, executor]) => ({ key, executor })),
      },
      taskQueue,
    );
    const result = await handle.result();
    const tasks = Object.fromEntries(result.tasks.map((t) => [t.key, t]));

    // Each way was tried for real: the tasks ran and reported what they printed, redacted.
    expect(Object.keys(corpus).length).toBeGreaterThanOrEqual(10);
    const reports = Object.fromEntries((await attemptReports(handle)).map((r) => [r.activityId.split('#')[0], r]));
    expect(reports['env-dump'].report!.logs!.stdout).toContain('GH=[redacted:GITHUB_TOKEN]');
    expect(tasks['error-text'].lastError).toBe(
      'shell command failed (exit code 1): auth failed for token [redacted:GITHUB_TOKEN]',
    );
    expect(tasks['error-line'].lastError).toContain('bad credentials [redacted:GITHUB_TOKEN]');
    expect(reports['split-tail'].report!.logs!.stdout).toMatch(/^(x*\[redacted:GITHUB_TOKEN\]|[^x])/);
    expect(tasks.encoded.status).toBe('succeeded');
    expect(reports.encoded.report!.logs!.stdout.match(/\[redacted:GITHUB_TOKEN\]/g)).toHaveLength(4);
    expect(tasks['output-keys'].output).toEqual({ '[redacted:GITHUB_TOKEN]': { nested: ['[redacted:GITHUB_TOKEN]'] } });
    expect(tasks['usage-model'].usage).toBeDefined();
    expect(reports.stderr.report!.logs!.stderr).toBe('debug: using [redacted:GITHUB_TOKEN]\n');
    expect(reports['log-tail'].report!.links).toEqual([
      { url: 'https://ci.example/?t=[redacted:GITHUB_TOKEN]', label: 'run [redacted:GITHUB_TOKEN]' },
    ]);
    expect(tasks['http-error-body'].lastError).toContain('db-password=[redacted:DB_PASSWORD] host=db1');
    expect(tasks['llm-error'].lastError).toMatch(/you sent Bearer \[redacte$/);
    expect(reports['not-given'].report!.logs!.stdout).toContain('openai=absent db=absent');
    // Exactly the allowlist (less what the shell itself sets: PWD, SHLVL, _).
    const shellOwn = new Set(['PWD', 'OLDPWD', 'SHLVL', '_']);
    expect(
      String(tasks['not-given'].output)
        .trim()
        .split(' ')
        .filter((name) => !shellOwn.has(name))
        .sort(),
    ).toEqual(
      [
        'HOME',
        'LANG',
        'PATH',
        'TEAMRUN_ATTEMPT',
        'TEAMRUN_ATTEMPT_SECRET',
        'TEAMRUN_ATTEMPT_SOCKET',
        'TEAMRUN_FENCING_TOKEN',
        'TEAMRUN_HOLDER',
        'TEAMRUN_INBOX',
        'TEAMRUN_INPUTS',
        'TEAMRUN_INPUTS_FILE',
        'TEAMRUN_LEASE_ID',
        'TEAMRUN_TASK_KEY',
        'TEAMRUN_WORKFLOW_ID',
        'TMPDIR',
        'TZ',
      ]
        // The base variables pass only when the worker has them.
        .filter((name) => name.startsWith('TEAMRUN_') || process.env[name] !== undefined)
        .sort(),
    );

    // And none of it reached history, the run's result, or the worker's own log.
    expectNoLeak('temporal workflow show -o json', await temporalShow(handle.workflowId));
    expectNoLeak('the run result', JSON.stringify(result));
    expectNoLeak("the worker's log", worker.output());
    expect(await workflowTaskFailures(handle)).toEqual([]);
  });

  it('redacts heartbeat progress, while the attempt runs and after it is interrupted', async () => {
    // A custom executor reporting the secret as progress, the way an agent SDK might echo its config.
    const chatty: Executor = async (_, ctx) => {
      ctx.progress({ step: `calling with ${ctx.env.GITHUB_TOKEN}`, [ctx.env.GITHUB_TOKEN!]: 1 });
      await new Promise((_resolve, reject) =>
        ctx.signal.addEventListener('abort', () => reject(new Error('stopped')), { once: true }),
      );
      return {};
    };
    const config = testConfig({ shell: { ...testConfig().worker.shell, secretEnv: ['GITHUB_TOKEN'] } });
    const worker = await workerForTest({ config, executors: { chatty }, env: { ...process.env, GITHUB_TOKEN } });
    const handle = await runForTest(
      { name: 'secret-progress', tasks: [{ key: 'agent', executor: { kind: 'chatty' } }] },
      worker,
    );
    const described = await waitFor('a heartbeat with progress', async () => {
      const text = await temporalDescribe(handle.workflowId);
      return text.includes('calling with') ? text : null;
    });
    expect(withDecodedPayloads(described)).toContain('calling with [redacted:GITHUB_TOKEN]');
    expectNoLeak('temporal workflow describe -o json', described);
    await handle.executeUpdate(msg.interruptTaskUpdate, { args: [{ key: 'agent', fencingToken: 1 }] });
    await waitFor('the attempt to be cancelled', async () => (await attemptReports(handle)).length > 0);
    expectNoLeak('temporal workflow show -o json', await temporalShow(handle.workflowId));
  });

  it('knows the llm key, TEMPORAL_API_KEY, secretEnv, redact.env and the TLS client key as secrets', () => {
    const dir = tempDir();
    const keyFile = path.join(dir, 'client.key');
    const body = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7';
    writeFileSync(keyFile, `-----BEGIN PRIVATE KEY-----\n${body}\n-----END PRIVATE KEY-----\n`);
    const config = testConfig({
      shell: { ...testConfig().worker.shell, secretEnv: ['GITHUB_TOKEN'] },
      redact: { env: ['DB_*'] },
    });
    const names = workerSecrets(config, {
      OPENAI_API_KEY,
      TEMPORAL_API_KEY: 'tmprl-api-key-value',
      GITHUB_TOKEN,
      DB_PASSWORD,
      DB_USER: 'reporting-user',
      HOME: '/root',
      TEMPORAL_TLS_CLIENT_KEY_PATH: keyFile,
    }).map((s) => `${s.name}=${s.value.slice(0, 12)}`);
    expect(names.sort()).toEqual(
      [
        `OPENAI_API_KEY=${OPENAI_API_KEY.slice(0, 12)}`,
        'TEMPORAL_API_KEY=tmprl-api-ke',
        `GITHUB_TOKEN=${GITHUB_TOKEN.slice(0, 12)}`,
        'DB_PASSWORD=hunter2',
        'DB_USER=reporting-us',
        'TLS_CLIENT_KEY=-----BEGIN P',
        `TLS_CLIENT_KEY=${body.slice(0, 12)}`,
      ].sort(),
    );
  });
});
