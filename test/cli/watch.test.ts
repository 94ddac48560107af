import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testConfig, uniqueQueue, waitFor } from '../helpers/env';
import { startOpenAiServer } from '../helpers/openai-server';
import { runForTest, workerForTest } from '../helpers/scenario';
import { spawnTeamrun, teamrun, waitForOutput } from './teamrun-cli';

describe('teamrun watch', () => {
  it('shows plain progress lines while a run works (not a TTY), then its summary; exit 0 on success', async () => {
    const worker = await workerForTest();
    const gate = path.join(mkdtempSync(path.join(os.tmpdir(), 'teamrun-watch-')), 'open');
    const handle = await runForTest(
      {
        name: uniqueQueue('watched'),
        budget: { maxTokens: 10_000 },
        tasks: [
          {
            key: 'held',
            executor: { kind: 'shell', command: 'while [ ! -e "$GATE" ]; do sleep 0.1; done', env: { GATE: gate } },
          },
          {
            key: 'after',
            dependsOn: ['held'],
            executor: { kind: 'shell', command: `echo '::teamrun-usage::{"inputTokens":40,"outputTokens":2}'` },
          },
        ],
      },
      worker,
    );
    const watch = spawnTeamrun(['watch', handle.workflowId]);
    await waitForOutput(watch, '0/2 done · 1 running · 0 failed · 0 in adjudication · 0 of 10,000 tokens');
    writeFileSync(gate, '');
    const { code, stdout, stderr } = await watch.exited;
    expect(code).toBe(0);
    // No terminal: plain lines, no bar drawing escape codes.
    expect(stderr).not.toContain('\u001b[');
    expect(stderr.trim().split('\n').at(-1)).toBe(
      '2/2 done · 0 running · 0 failed · 0 in adjudication · 42 of 10,000 tokens · $0.00 · succeeded',
    );
    expect(stdout).toContain(`run ${handle.workflowId}: succeeded`);
  });

  it('prints a line per agent model turn and tool call under the counts: key, turn, tokens, tool, ms, ok', async ({
    onTestFinished,
  }) => {
    const server = await startOpenAiServer();
    onTestFinished(() => server.close());
    const usage = { promptTokens: 1_200, completionTokens: 40 };
    // Turn 1 calls a tool (and one that does not exist), turn 2 answers.
    server.script('watch-agent', (r) =>
      r.turn === 1
        ? {
            usage,
            toolCalls: [
              { name: 'teamrun__set_output', arguments: { output: 'notes' } },
              { name: 'fs__nowhere', arguments: {} },
            ],
          }
        : { usage, content: 'done' },
    );
    const worker = await workerForTest(
      { config: testConfig({ llm: { baseUrl: server.baseUrl, apiKeyEnv: 'TEAMRUN_TEST_WATCH_KEY' } }) },
      onTestFinished,
    );
    const handle = await runForTest(
      {
        name: uniqueQueue('watched-agent'),
        tasks: [
          {
            key: 'writer',
            executor: { kind: 'agent', model: 'watch-agent', prompt: 'Write', tools: ['teamrun__set_output'] },
          },
        ],
      },
      worker,
    );
    const { code, stderr } = await spawnTeamrun(['watch', handle.workflowId]).exited;
    expect(code, stderr).toBe(0);
    const lines = stderr.split('\n');
    expect(lines).toContain(
      'writer · turn 1 · 1,240 tokens (1,200 in, 40 out) · calls teamrun__set_output, fs__nowhere',
    );
    expect(lines.some((l) => /^writer · turn 1 · tool teamrun__set_output · [\d,]+ ms · ok$/.test(l))).toBe(true);
    expect(lines.some((l) => /^writer · turn 1 · tool fs__nowhere · [\d,]+ ms · failed$/.test(l))).toBe(true);
    expect(lines).toContain('writer · turn 2 · 1,240 tokens (1,200 in, 40 out) · answers');
    // Under the counts: the last line is still the run's.
    expect(lines.filter(Boolean).at(-1)).toMatch(/^1\/1 done · .* · succeeded$/);
  });

  it('exits 1 for a run that did not succeed, and names an unknown run', async () => {
    const worker = await workerForTest();
    const handle = await runForTest(
      {
        name: 'watched-fail',
        tasks: [{ key: 'bad', retry: { maxAttempts: 1 }, executor: { kind: 'shell', command: 'exit 3' } }],
      },
      worker,
    );
    await handle.result();
    const failed = await teamrun(['watch', handle.workflowId]);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain(`run ${handle.workflowId}: failed`);
    const unknown = await teamrun(['watch', 'no-such-run']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no run with id "no-such-run"');
  });

  it('on Ctrl-C says the run goes on and how to watch or abort it, and exits 130', async () => {
    const worker = await workerForTest();
    const handle = await runForTest(
      { name: uniqueQueue('left'), tasks: [{ key: 'long', executor: { kind: 'sleep', ms: 600_000 } }] },
      worker,
    );
    const watch = spawnTeamrun(['watch', handle.workflowId]);
    await waitForOutput(watch, '0/1 done · 1 running');
    watch.child.kill('SIGINT');
    const { code, stderr } = await watch.exited;
    expect(code).toBe(130);
    expect(stderr).toContain(
      `run ${handle.workflowId} goes on. Watch it again with \`teamrun watch ${handle.workflowId}\`, ` +
        `or stop it with \`teamrun abort ${handle.workflowId} --reason <why>\``,
    );
    expect((await handle.describe()).status.name).toBe('RUNNING');
    // Cancelled the Temporal way, `status` says a cancel was requested (open or closed by then).
    await handle.cancel();
    const status = await waitFor('status to show the cancel', async () => {
      const result = await teamrun(['status', handle.workflowId]);
      return /\ncancel +requested/.test(result.stdout) ? result : null;
    });
    expect(status.stdout).toMatch(
      /\ncancel +requested \S+Z: (nothing new starts; the run closes as Canceled once|the run closed as Canceled)/,
    );
    await handle.terminate('test finished').catch(() => undefined);
  });
});
