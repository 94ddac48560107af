import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { testConfig } from '../helpers/env';
import { historyAttempts } from '../helpers/history';
import { runForTest, workerForTest } from '../helpers/scenario';

const byKey = <T extends { key: string }>(items: T[]) => Object.fromEntries(items.map((t) => [t.key, t]));

/** A real local HTTP server that answers every request with `status` and remembers the requests. */
async function answeringServer(
  status: number,
  body: string,
): Promise<{ url: string; requests: IncomingHttpHeaders[] }> {
  const requests: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    requests.push(req.headers);
    req.resume();
    res.writeHead(status, { 'Content-Type': 'text/plain' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/deploy`, requests };
}

describe('retries belong to the workflow: one activity per attempt, each with its own token', () => {
  it('completes a task that fails once on its second attempt, with a new fencing token', async () => {
    const worker = await workerForTest();
    const handle = await runForTest(
      {
        name: 'flaky',
        retry: { maxAttempts: 3, backoffMs: 100 },
        tasks: [
          {
            key: 'flaky',
            executor: {
              kind: 'shell',
              command: `[ "$TEAMRUN_ATTEMPT" -ge 2 ] || { echo "first try fails" >&2; exit 1; }
echo "::teamrun-output::{\\"attempt\\":$TEAMRUN_ATTEMPT,\\"token\\":$TEAMRUN_FENCING_TOKEN}"`,
            },
          },
        ],
      },
      worker,
    );
    const result = await handle.result();

    expect(result.status).toBe('succeeded');
    expect(result.tasks[0]).toMatchObject({
      status: 'succeeded',
      attempts: 2,
      fencingToken: 2,
      output: { attempt: 2, token: 2 },
    });
    const attempts = await historyAttempts(handle);
    expect(attempts.map((a) => [a.activityId, a.outcome])).toEqual([
      ['flaky#1', 'failed'],
      ['flaky#2', 'completed'],
    ]);
    expect(attempts[0].failure?.message).toContain('first try fails');
    // The backoff is the workflow's: the second attempt is scheduled only after it.
    expect(attempts[1].scheduledAt - attempts[0].closedAt!).toBeGreaterThanOrEqual(100);
  });

  it('fails a task after maxAttempts: 2 and skips its dependent, saying why', async () => {
    const worker = await workerForTest();
    const handle = await runForTest(
      {
        name: 'doomed',
        retry: { maxAttempts: 5, backoffMs: 100 },
        tasks: [
          {
            key: 'build',
            retry: { maxAttempts: 2 },
            executor: { kind: 'shell', command: 'echo "compiler says no" >&2; exit 3' },
          },
          { key: 'deploy', dependsOn: ['build'], executor: { kind: 'noop' } },
        ],
      },
      worker,
    );
    const result = await handle.result();

    expect(result.status).toBe('failed');
    const tasks = byKey(result.tasks);
    expect(tasks.build).toMatchObject({ status: 'failed', attempts: 2, fencingToken: 2 });
    expect(tasks.build.lastError).toMatch(/exit code 3.*compiler says no/);
    expect(tasks.deploy).toMatchObject({ status: 'skipped', attempts: 0, skipReason: 'dependency "build" failed' });
    expect((await historyAttempts(handle)).map((a) => a.activityId)).toEqual(['build#1', 'build#2']);
  });

  it('runs a shell task that reports a non-retryable failure once', async () => {
    const worker = await workerForTest();
    const handle = await runForTest(
      {
        name: 'bad-input',
        retry: { maxAttempts: 5, backoffMs: 100 },
        tasks: [
          {
            key: 'parse',
            executor: {
              kind: 'shell',
              command: `echo '::teamrun-error::{"message":"bad input","nonRetryable":true}'; exit 1`,
            },
          },
        ],
      },
      worker,
    );
    const result = await handle.result();

    expect(result.status).toBe('failed');
    expect(result.tasks[0]).toMatchObject({ status: 'failed', attempts: 1 });
    expect(result.tasks[0].lastError).toContain('bad input');
    const attempts = await historyAttempts(handle);
    expect(attempts).toHaveLength(1);
    expect(attempts[0].failure).toMatchObject({ nonRetryable: true, type: 'TeamShellFailed' });
  });

  it('runs an http task answered 400 once, and retries one answered 503', async () => {
    const rejecting = await answeringServer(400, 'missing field "version"');
    const unavailable = await answeringServer(503, 'try later');
    // Loopback is refused unless the worker's operator allows it.
    const worker = await workerForTest({
      config: testConfig({ http: { ...testConfig().worker.http, allowHosts: ['127.0.0.1'] } }),
    });
    const handle = await runForTest(
      {
        name: 'http-verdicts',
        retry: { maxAttempts: 3, backoffMs: 100 },
        tasks: [
          { key: 'deploy', executor: { kind: 'http', url: rejecting.url, method: 'POST', body: { app: 'web' } } },
          { key: 'status', executor: { kind: 'http', url: unavailable.url } },
        ],
      },
      worker,
    );
    const result = await handle.result();

    const tasks = byKey(result.tasks);
    expect(tasks.deploy).toMatchObject({ status: 'failed', attempts: 1 });
    expect(tasks.deploy.lastError).toContain('HTTP 400: missing field "version"');
    expect(rejecting.requests).toHaveLength(1);
    expect(rejecting.requests[0]['teamrun-fencing-token']).toBe('1');
    expect(rejecting.requests[0]['idempotency-key']).toBe(`${handle.workflowId}/deploy/1`);

    expect(tasks.status).toMatchObject({ status: 'failed', attempts: 3 });
    expect(unavailable.requests.map((h) => h['teamrun-fencing-token'])).toEqual(['1', '2', '3']);
  });
});
