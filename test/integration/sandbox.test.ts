import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { describe, it } from 'vitest';
import { sandboxPrefix } from '../../src/activities/executors/sandbox';
import { McpConnection } from '../../src/activities/tools/mcp-connection';
import type { TeamrunConfig } from '../../src/config/config';
import type { TeamPlanInput } from '../../src/plan/schema';
import { testConfig } from '../helpers/env';
import { runForTest, workerForTest } from '../helpers/scenario';
import { tempDir } from './takeover-helpers';

const standins = path.resolve(__dirname, '../helpers/agent-clis');

/**
 * A task of another run looking for attempt secrets: every TEAMRUN_ATTEMPT_SECRET in a
 * /proc/<pid>/environ it can read that is not its own (issue 39: it read the victim's and added a
 * task to the victim's governed run). Prints how many it found, as its output.
 */
const ATTACKER = [
  'while [ ! -f "$DIR/victims-started" ]; do sleep 0.1; done',
  'found=0',
  'for f in /proc/[0-9]*/environ; do',
  '  s=$(tr "\\0" "\\n" < "$f" 2>/dev/null | sed -n "s/^TEAMRUN_ATTEMPT_SECRET=//p")',
  '  if [ -n "$s" ] && [ "$s" != "$TEAMRUN_ATTEMPT_SECRET" ]; then found=$((found+1)); fi',
  'done',
  'touch "$DIR/done"',
  'echo "::teamrun-output::{\\"found\\":$found}"',
].join('\n');

/** A shell victim and an agent-cli victim (the stand-in codex, which hangs), both of one run. */
function victims(dir: string): TeamPlanInput {
  return {
    name: 'sandbox-victim',
    teammates: 3,
    awaitAdjudication: false,
    tasks: [
      {
        key: 'shell-victim',
        executor: {
          kind: 'shell',
          command: 'touch "$DIR/shell-started"; while [ ! -f "$DIR/done" ]; do sleep 0.1; done',
          env: { DIR: dir },
        },
      },
      { key: 'cli-victim', executor: { kind: 'agent-cli', cli: 'codex', prompt: 'hang around' } },
      {
        key: 'both-started',
        executor: {
          kind: 'shell',
          command:
            'while [ ! -f "$DIR/shell-started" ] || ! ls "$DIR"/state/started-* >/dev/null 2>&1; do sleep 0.1; done; ' +
            'touch "$DIR/victims-started"',
          env: { DIR: dir },
        },
      },
    ],
  };
}

async function attack(sandbox: TeamrunConfig['worker']['sandbox']) {
  const dir = tempDir('sandbox');
  const state = path.join(dir, 'state');
  mkdirSync(state);
  const codex = { command: path.join(standins, 'codex'), allowArgs: [], env: { STANDIN_STATE_DIR: state } };
  const worker = await workerForTest({
    config: testConfig({ sandbox, agentClis: { codex: { ...codex, keepWorktrees: false } } }),
  });
  await runForTest(victims(dir), worker);
  const attacker = await runForTest(
    {
      name: 'sandbox-attacker',
      tasks: [{ key: 'look', executor: { kind: 'shell', command: ATTACKER, env: { DIR: dir } } }],
    },
    worker,
  );
  const result = await attacker.result();
  return { result, dir };
}

describe("a task cannot read another attempt's secret (worker.sandbox)", () => {
  it("without the sandbox, a task of another run reads the victims' TEAMRUN_ATTEMPT_SECRET from /proc", async ({
    expect,
  }) => {
    const { result } = await attack({ mode: 'off', command: 'bwrap', readOnly: false, writable: [] });
    expect(result.status).toBe('succeeded');
    // The shell victim, the agent-cli stand-in and the run's waiting task all hold one.
    expect((result.tasks[0].output as { found: number }).found).toBeGreaterThanOrEqual(2);
  });

  it('with worker.sandbox.mode: on, it finds none: each attempt has its own PID namespace and /proc', async ({
    expect,
  }) => {
    const { result } = await attack({ mode: 'on', command: 'bwrap', readOnly: false, writable: [] });
    expect(result.status).toBe('succeeded');
    expect(result.tasks[0].output).toEqual({ found: 0 });
  });
});

describe('worker.sandbox.readOnly', () => {
  it('a shell task writes its cwd and TMPDIR, and nothing else: the rest of the file system is read-only', async ({
    expect,
    onTestFinished,
  }) => {
    const cwd = tempDir('sandbox-cwd');
    // Outside the temporary directory, which the sandbox keeps writable: a checkout under it (a CI clone in
    // /tmp) would make the repository's own .teamrun writable too, so the home directory then.
    const repo = path.resolve(__dirname, '../..');
    const underTmp = !path.relative(os.tmpdir(), repo).startsWith('..');
    const outside = mkdtempSync(path.join(underTmp ? os.homedir() : path.join(repo, '.teamrun'), 'sandbox-outside-'));
    onTestFinished(() => rmSync(outside, { recursive: true, force: true }));
    const worker = await workerForTest({
      config: testConfig({ sandbox: { mode: 'on', command: 'bwrap', readOnly: true, writable: [] } }),
    });
    const command =
      'echo in > inside.txt && ' +
      `if echo out > ${outside}/planted.txt 2>/dev/null; then w=wrote; else w=refused; fi; ` +
      'echo "::teamrun-output::\\"$w\\""';
    const run = await runForTest(
      { name: 'sandbox-readonly', tasks: [{ key: 'w', executor: { kind: 'shell', command, cwd } }] },
      worker,
    );
    const result = await run.result();
    expect(result.tasks[0]).toMatchObject({ status: 'succeeded' });
    expect(result.tasks[0].output).toBe('refused');
    expect(existsSync(path.join(cwd, 'inside.txt'))).toBe(true);
    expect(existsSync(path.join(outside, 'planted.txt'))).toBe(false);
  });
});

describe('MCP stdio servers in the sandbox', () => {
  it('a stdio server an agent task starts runs in a PID namespace of its own: it sees none of the worker`s processes', async ({
    expect,
  }) => {
    const echo = path.resolve(__dirname, '../helpers/mcp-echo-server.mjs');
    const spec = { command: process.execPath, args: [echo] };
    const sandbox: TeamrunConfig['worker']['sandbox'] = { mode: 'on', command: 'bwrap', readOnly: false, writable: [] };
    const connection = McpConnection.stdio(
      'echo',
      spec,
      { PATH: process.env.PATH! },
      sandboxPrefix(sandbox, process.cwd()),
    );
    try {
      const answer = await connection.call('echo', { text: 'hi' }, 1, {
        signal: new AbortController().signal,
        timeoutMs: 30_000,
      });
      expect(answer.ok).toBe(true);
      // bwrap's init is 1 in the namespace, the server 2; the worker's own pid is not there.
      const said = JSON.parse(answer.ok ? answer.content : '{}') as { pid: number };
      expect(said.pid).toBe(2);
    } finally {
      await connection.close();
    }
  });
});
