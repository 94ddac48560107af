import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { TeamPlanInput } from '../../src/plan/schema';
import { MAILBOX_LIMITS } from '../../src/team/mailbox';
import * as msg from '../../src/workflows/messages';
import { teamrun } from '../cli/teamrun-cli';
import {
  spawnWorkerProcess,
  startRun,
  temporalAddress,
  temporalBinary,
  testConfig,
  uniqueQueue,
  waitFor,
} from '../helpers/env';
import { startOpenAiServer } from '../helpers/openai-server';
import { allTaskViews, runForTest, workerForTest, updateCodeOf } from '../helpers/scenario';

const root = path.resolve(__dirname, '..', '..');
/** The CLI as a shell task runs it: the run, key, token and server come from the attempt's environment. */
const CLI = `${process.execPath} ${path.join(root, 'bin/teamrun.js')}`;

function tmpDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-mailbox-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Polls `teamrun inbox` until a message arrives, then outputs what it read (one line of JSON). */
const waitForMail = (extra = '') =>
  `for i in $(seq 1 240); do m=$(${CLI} inbox); if [ "$m" != "[]" ]; then ${extra} echo "::teamrun-output::{\\"received\\":$m}"; exit 0; fi; sleep 0.5; done; exit 1`;

describe('teammates that talk', () => {
  it('a writer and a reviewer running at once exchange messages through teamrun send / teamrun inbox', async () => {
    const worker = await workerForTest();
    const plan: TeamPlanInput = {
      name: 'writer-reviewer',
      teammates: 2,
      tasks: [
        // The writer starts with an empty TEAMRUN_INBOX file and waits for the review.
        {
          key: 'writer',
          executor: {
            kind: 'shell',
            command: `test "$(cat "$TEAMRUN_INBOX")" = "[]" || exit 3; ${waitForMail()}`,
            timeoutMs: 180_000,
          },
        },
        {
          key: 'reviewer',
          executor: {
            kind: 'shell',
            command: `${CLI} send --subject review --to writer '{"fix":"rename foo to bar"}' && echo '::teamrun-output::"sent"'`,
            timeoutMs: 120_000,
          },
        },
      ],
    };
    const handle = await runForTest(plan, worker);
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    const writer = result.tasks.find((t) => t.key === 'writer')!;
    expect(writer.output).toEqual({
      received: [
        {
          id: 1,
          from: 'reviewer',
          to: 'writer',
          subject: 'review',
          body: { fix: 'rename foo to bar' },
          at: expect.any(Number),
        },
      ],
    });
    // Both ran at the same time: the reviewer's message reached a writer still running.
    expect(result.maxConcurrent).toBe(2);

    // The report draws the conversation: the message on the writer's row, and in the control table.
    const file = path.join(tmpDir(), 'report.html');
    const report = await teamrun(['report', handle.workflowId, '--html', file]);
    expect(report.code, report.stderr).toBe(0);
    const html = readFileSync(file, 'utf8');
    expect(html).toMatch(
      /<div class="row" id="task-writer"[^\n]*class="mark sys message"[^>]*title="message reviewer → writer: review -&gt; ok"/,
    );
    expect(html).toMatch(/<tr class="control" data-name="sendMessage">.*?message reviewer → writer: review/);
  });

  it('a broadcast reaches each running task once, never the sender; humans send with teamrun send RUN and read with teamrun messages', async () => {
    const worker = await workerForTest();
    // Each listener reads until it sees "stop", keeping every message it got.
    const listen = `got=""; for i in $(seq 1 240); do m=$(${CLI} inbox); [ "$m" != "[]" ] && got="$got$m"; case "$m" in *stop*) echo "::teamrun-output::$(printf '%s' "$got" | sed 's/\\]\\[/,/g')"; exit 0;; esac; sleep 0.3; done; exit 1`;
    const plan: TeamPlanInput = {
      name: 'broadcast',
      teammates: 3,
      tasks: [
        { key: 'l1', executor: { kind: 'shell', command: listen, timeoutMs: 180_000 } },
        { key: 'l2', executor: { kind: 'shell', command: listen, timeoutMs: 180_000 } },
        { key: 'l3', executor: { kind: 'shell', command: listen, timeoutMs: 180_000 } },
      ],
    };
    const handle = await runForTest(plan, worker);
    await waitFor(
      'all three listeners running',
      async () => (await handle.query(msg.membersQuery)).every((m) => m.state === 'running'),
      60_000,
    );
    const hello = await teamrun(['send', handle.workflowId, '--to', '*', '--subject', 'hello', '"hello, team"']);
    expect(hello.code, hello.stderr).toBe(0);
    expect(hello.stdout).toContain('sent message 1 to *');
    // l1 broadcasts too (it is a running task, with its live token): it must not get its own.
    const claims = await handle.query(msg.activeClaimsQuery);
    const l1 = claims.find((c) => c.key === 'l1')!;
    expect(
      (
        await handle.executeUpdate(msg.sendMessageUpdate, {
          args: [{ from: 'l1', fencingToken: l1.fencingToken, to: '*', body: 'from l1' }],
        })
      ).id,
    ).toBe(2);
    await teamrun(['send', handle.workflowId, '--to', '*', '"stop"']);
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    const bodies = (key: string) =>
      (result.tasks.find((t) => t.key === key)!.output as Array<{ body: unknown }>).map((m) => m.body);
    expect(bodies('l1')).toEqual(['hello, team', 'stop']);
    expect(bodies('l2')).toEqual(['hello, team', 'from l1', 'stop']);
    expect(bodies('l3')).toEqual(['hello, team', 'from l1', 'stop']);

    const listed = await teamrun(['messages', handle.workflowId, '--json']);
    expect(JSON.parse(listed.stdout).messages.map((m: { from: string; to: string }) => `${m.from}->${m.to}`)).toEqual([
      'coordinator->*',
      'l1->*',
      'coordinator->*',
    ]);
  });

  it("a stale attempt's send and read are refused, from inside the task", async () => {
    const worker = await workerForTest();
    const dir = tmpDir();
    // Attempt 1 notes its token and its gateway secret and fails; attempt 2 tries the mailbox with
    // attempt 1's secret (through the gateway), and with its token (directly), then as itself.
    const command = [
      `if [ "$TEAMRUN_ATTEMPT" = 1 ]; then echo "$TEAMRUN_FENCING_TOKEN" > ${dir}/token; ` +
        `echo "$TEAMRUN_ATTEMPT_SECRET" > ${dir}/secret; exit 1; fi`,
      `old=$(cat ${dir}/token)`,
      `TEAMRUN_ATTEMPT_SECRET=$(cat ${dir}/secret) ${CLI} send --to other '"late"' 2> ${dir}/send.err; s=$?`,
      `env -u TEAMRUN_ATTEMPT_SOCKET TEAMRUN_FENCING_TOKEN=$old ${CLI} inbox 2> ${dir}/read.err; r=$?`,
      `${CLI} send --to other '"fresh"' > /dev/null || exit 5`,
      `echo "::teamrun-output::{\\"send\\":$s,\\"read\\":$r}"`,
    ].join('\n');
    const plan: TeamPlanInput = {
      name: 'stale-mail',
      teammates: 2,
      retry: { maxAttempts: 2, backoffMs: 0 },
      tasks: [
        // The worker gives a task no Temporal address (worker.shell.temporalEnv); the plan gives its own, to
        // try the direct path with a stale token.
        {
          key: 'writer',
          executor: { kind: 'shell', command, timeoutMs: 120_000, env: { TEMPORAL_ADDRESS: temporalAddress() } },
        },
        {
          key: 'other',
          dependsOn: ['writer'],
          executor: { kind: 'shell', command: 'echo "::teamrun-output::$(cat "$TEAMRUN_INBOX")"' },
        },
      ],
    };
    const handle = await runForTest(plan, worker);
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    expect(result.tasks[0].output).toEqual({ send: 1, read: 1 });
    // The gateway forgot the secret when attempt 1 ended.
    expect(readFileSync(`${dir}/send.err`, 'utf8')).toContain('sendMessage rejected: TEAM_ATTEMPT_UNKNOWN');
    expect(readFileSync(`${dir}/read.err`, 'utf8')).toContain('readInbox rejected: stale_attempt');
    // Only the live attempt's message got through, and the next task got it in TEAMRUN_INBOX.
    expect((result.tasks[1].output as Array<{ body: unknown; from: string }>).map((m) => [m.from, m.body])).toEqual([
      ['writer', 'fresh'],
    ]);
  });

  it('the limits refuse with their codes and record pressure events; temporal workflow update execute --name sendMessage works', async () => {
    const worker = await workerForTest();
    const handle = await runForTest(
      {
        name: 'mail-limits',
        governance: { operators: ['alice'] },
        tasks: [{ key: 'sleeper', executor: { kind: 'approval' } }],
      },
      worker,
    );
    await waitFor('the run to start', async () => (await handle.query(msg.statusQuery)).pendingAdjudications === 1);
    const send = (request: Record<string, unknown>) =>
      handle.executeUpdate(msg.sendMessageUpdate, {
        args: [{ from: 'coordinator', actor: 'alice', to: 'sleeper', body: 'x', ...request } as never],
      });

    // The plain temporal CLI, as docs/messaging.md shows it.
    const { stdout } = await promisify(execFile)(temporalBinary(), [
      'workflow',
      'update',
      'execute',
      '--address',
      temporalAddress(),
      '--workflow-id',
      handle.workflowId,
      '--name',
      'sendMessage',
      '--input',
      JSON.stringify({
        from: 'coordinator',
        actor: 'alice',
        to: 'sleeper',
        subject: 'from the temporal CLI',
        body: { n: 0 },
      }),
    ]);
    expect(stdout).toMatch(/Result\s+map\[id:1 ok:true\]/);

    expect(await updateCodeOf(send({ to: 'nobody' }))).toBe('TEAM_MAILBOX_MESSAGE_INVALID');
    expect(await updateCodeOf(send({ body: 'x'.repeat(MAILBOX_LIMITS.bodyBytes + 1) }))).toBe(
      'TEAM_MAILBOX_MESSAGE_TOO_LARGE',
    );
    expect(await updateCodeOf(send({ actor: 'mallory' }))).toBe('forbidden');
    for (let n = 2; n <= MAILBOX_LIMITS.messages; n++) await send({ body: n });
    // Nobody has read them (the sleeper never runs): nothing can be compacted.
    expect(await updateCodeOf(send({ body: 'one too many' }))).toBe('TEAM_MAILBOX_CAPACITY_EXCEEDED');
    const { events } = await handle.query(msg.eventsQuery, { limit: 2_000 });
    expect(events.filter((e) => e.type === 'mailbox:pressure').map((e) => e.level)).toEqual([
      'high',
      'critical',
      'full',
    ]);
    // Refused by the update's validator: nothing of it reached history, nor the events.
    expect(events.filter((e) => e.type === 'mailbox:backpressure')).toHaveLength(0);
    expect(events.filter((e) => e.type === 'mailbox:sent')).toHaveLength(MAILBOX_LIMITS.messages);
    const page = await handle.query(msg.messagesQuery, { to: 'sleeper', after: 95 });
    expect(page.messages.map((m) => m.id)).toEqual([96, 97, 98, 99, 100]);
  });

  it('messages survive continue-as-new and a worker killed mid-attempt; the idle hook runs as its own activity', async () => {
    const dir = tmpDir();
    const taskQueue = uniqueQueue('mail-survive');
    let worker = await spawnWorkerProcess({ taskQueue, identity: 'mail-worker-1' });
    onTestFinished(() => void worker.child.kill('SIGKILL'));
    const noops = Array.from({ length: 50 }, (_, i) => ({
      key: `n${i}`,
      dependsOn: ['go'],
      executor: { kind: 'noop' } as const,
    }));
    const plan: TeamPlanInput = {
      name: 'mail-survives',
      teammates: 2,
      lease: { ttlMs: 2_000 },
      continueAsNewAfterEvents: 200,
      hooks: { teammateIdle: { executor: { kind: 'shell', command: `echo "$TEAMRUN_INPUTS" >> ${dir}/idle.log` } } },
      tasks: [
        { key: 'go', executor: { kind: 'approval' } },
        ...noops,
        // Its first attempt hangs until its worker is killed; the second ends at once.
        {
          key: 'victim',
          dependsOn: noops.map((n) => n.key),
          executor: {
            kind: 'shell',
            command: `if [ "$TEAMRUN_ATTEMPT" = 1 ]; then echo $$ > ${dir}/victim.pid; exec sleep 120; fi`,
          },
        },
        {
          key: 'reader',
          dependsOn: ['victim'],
          executor: { kind: 'shell', command: 'echo "::teamrun-output::$(cat "$TEAMRUN_INBOX")"' },
        },
      ],
    };
    const handle = await startRun(plan, taskQueue);
    onTestFinished(async () => {
      if ((await handle.describe()).status.name === 'RUNNING') await handle.terminate('test finished');
    });
    await waitFor(
      'the go approval',
      async () => (await handle.query(msg.statusQuery)).pendingAdjudications === 1,
      60_000,
    );
    const firstRun = (await handle.describe()).runId;
    for (const body of ['first', 'second']) {
      const sent = await teamrun(['send', handle.workflowId, '--to', 'reader', `"${body}"`]);
      expect(sent.code, sent.stderr).toBe(0);
    }
    await handle.executeUpdate(msg.adjudicateUpdate, { args: [{ key: 'go', decision: 'accept', decisionId: 'go' }] });

    // The 50 tasks push the history past 200 events: the run continues as new, carrying the mailbox.
    await waitFor(
      'the victim running in a later run of the chain',
      async () => existsSync(`${dir}/victim.pid`) && (await handle.describe()).runId !== firstRun,
      120_000,
      250,
    );
    expect((await handle.query(msg.messagesQuery)).messages.map((m) => m.body)).toEqual(['first', 'second']);
    await teamrun(['send', handle.workflowId, '--to', 'reader', '"third"']);

    worker.child.kill('SIGKILL');
    await worker.exited;
    worker = await spawnWorkerProcess({ taskQueue, identity: 'mail-worker-2' });
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    // 50 noops and their outputs: past the result's page of views; the `tasks` query has them all.
    const views = await allTaskViews(handle);
    const reader = views.find((t) => t.key === 'reader')!;
    expect((reader.output as Array<{ id: number; body: unknown }>).map((m) => [m.id, m.body])).toEqual([
      [1, 'first'],
      [2, 'second'],
      [3, 'third'],
    ]);
    expect(views.find((t) => t.key === 'victim')!.attempts).toBe(2);

    // The idle hook ran on the worker with each member record; it never touched a task.
    const hooked = readFileSync(`${dir}/idle.log`, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { member: { holder: string; state: string } });
    expect(hooked.length).toBeGreaterThanOrEqual(3);
    expect(hooked.every((h) => h.member.state === 'idle' && /^teammate-[12]$/.test(h.member.holder))).toBe(true);
    expect(result.stats).toEqual(expect.objectContaining({ total: 53, succeeded: 53 }));
  });
});

describe('two llm agents talk through the mailbox', () => {
  it("the reviewer's answer sends a ::teamrun-message:: line; the writer's attempt gets it appended to its conversation", async () => {
    const server = await startOpenAiServer();
    onTestFinished(() => server.close());
    server.model('reviewer-model', {
      content:
        'The draft is fine but the intro is long.\n::teamrun-message::{"to":"writer","subject":"review","body":"shorten the intro to one sentence"}',
      usage: { promptTokens: 20, completionTokens: 10 },
    });
    server.model('writer-model', { content: 'Teamrun runs teams.', usage: { promptTokens: 30, completionTokens: 5 } });
    const worker = await workerForTest({
      config: testConfig({ llm: { baseUrl: server.baseUrl, apiKeyEnv: 'TEAMRUN_TEST_NO_KEY' } }),
    });
    const handle = await runForTest(
      {
        name: 'llm-pair',
        tasks: [
          {
            key: 'reviewer',
            executor: {
              kind: 'llm',
              model: 'reviewer-model',
              prompt: 'Review the draft. To ask the writer for a change, end with a ::teamrun-message:: line.',
            },
          },
          {
            key: 'writer',
            dependsOn: ['reviewer'],
            executor: {
              kind: 'llm',
              model: 'writer-model',
              messages: [
                { role: 'system', content: 'You write the intro.' },
                { role: 'user', content: 'Write it.' },
              ],
            },
          },
        ],
      },
      worker,
    );
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    const writerCall = server.requests.find((r) => r.model === 'writer-model')!;
    expect(writerCall.messages).toEqual([
      { role: 'system', content: 'You write the intro.' },
      { role: 'user', content: 'Write it.' },
      {
        role: 'user',
        content: 'Messages from your team:\n- from reviewer (review): shorten the intro to one sentence',
      },
    ]);
    expect((await teamrun(['messages', handle.workflowId, '--json'])).stdout).toContain('shorten the intro');
  });
});
