import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { describe, it } from 'vitest';
import { sandboxAtStart, sandboxPrefix } from '../../src/activities/executors/sandbox';
import { McpConnection } from '../../src/activities/tools/mcp-connection';
import type { TeamrunConfig } from '../../src/config/config';
import type { TeamPlanInput } from '../../src/plan/schema';
import { testConfig, uniqueQueue, waitFor } from '../helpers/env';
import { alive, hostPidsWithEnv } from '../helpers/processes';
import { runForTest, workerForTest } from '../helpers/scenario';
import { tempDir } from './takeover-helpers';
import { spawnWorker, startLeaseRun } from './leases-helpers';

const standins = path.resolve(__dirname, '../helpers/agent-clis');

/**
 * The host's pids of a sandboxed task's tree once it has started (and `ready` says so): bwrap, its init, the shell,
 * its child, the daemon and the shell's own sleep, found by the `mark` in their environment.
 */
function sandboxedTree(mark: string, ready: () => boolean = () => true): Promise<number[]> {
  return waitFor('the tree to start', () => {
    const found = hostPidsWithEnv(mark);
    return ready() && found.length >= 5 ? found : null;
  });
}

/**
 * A task of another run looking for attempt secrets: every TEAMRUN_ATTEMPT_SECRET in a
 * /proc/<pid>/environ it can read that is not its own (issue 39: it read the victim's and added a
 * task to the victim's governed run), and every other attempt's inputs file (dependency outputs) it
 * can read in the worker's gateway directory, beside its own. Prints how many of each it found, and
 * whether it can read its own inputs, as its output.
 */
const ATTACKER = [
  'while [ ! -f "$DIR/victims-started" ]; do sleep 0.1; done',
  'found=0',
  'for f in /proc/[0-9]*/environ; do',
  '  s=$(tr "\\0" "\\n" < "$f" 2>/dev/null | sed -n "s/^TEAMRUN_ATTEMPT_SECRET=//p")',
  '  if [ -n "$s" ] && [ "$s" != "$TEAMRUN_ATTEMPT_SECRET" ]; then found=$((found+1)); fi',
  'done',
  'own=$(dirname "$TEAMRUN_INPUTS_FILE"); inputs=0; mine=false',
  'for f in "$(dirname "$own")"/teamrun-inputs-*/inputs.json; do',
  '  if [ -r "$f" ] && [ "$(dirname "$f")" != "$own" ]; then inputs=$((inputs+1)); fi',
  'done',
  'if [ -r "$TEAMRUN_INPUTS_FILE" ]; then mine=true; fi',
  'touch "$DIR/done"',
  'echo "::teamrun-output::{\\"found\\":$found,\\"inputs\\":$inputs,\\"mine\\":$mine}"',
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

/** The victims and the attacker on one worker with `sandbox` (undefined: the default config's). */
async function attack(sandbox?: TeamrunConfig['worker']['sandbox']) {
  const dir = tempDir('sandbox');
  const state = path.join(dir, 'state');
  mkdirSync(state);
  const codex = { command: path.join(standins, 'codex'), allowArgs: [], env: { STANDIN_STATE_DIR: state } };
  const agentClis = { codex: { ...codex, keepWorktrees: false } };
  const worker = await workerForTest({ config: testConfig({ ...(sandbox && { sandbox }), agentClis }) });
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

const sandboxOf = (mode: 'auto' | 'on' | 'off', command = 'bwrap'): TeamrunConfig['worker']['sandbox'] => ({
  mode,
  command,
  readOnly: false,
  writable: [],
});

describe("a task cannot read another attempt's secret (worker.sandbox)", () => {
  it("with worker.sandbox.mode: off, a task of another run reads the victims' TEAMRUN_ATTEMPT_SECRET from /proc", async ({
    expect,
  }) => {
    const { result } = await attack(sandboxOf('off'));
    expect(result.status).toBe('succeeded');
    // The shell victim, the agent-cli stand-in and the run's waiting task all hold one.
    const output = result.tasks[0].output as { found: number; inputs: number; mine: boolean };
    expect(output.found).toBeGreaterThanOrEqual(2);
    // And the inputs of the shell victim and the agent-cli stand-in are there to read.
    expect(output.inputs).toBeGreaterThanOrEqual(2);
    expect(output.mine).toBe(true);
  });

  it('with the default config, it finds none: each attempt has its own PID namespace and /proc, and sees only its own inputs', async ({
    expect,
  }) => {
    expect(testConfig().worker.sandbox.mode).toBe('auto');
    expect(sandboxAtStart(testConfig().worker.sandbox)).toMatchObject({ isolated: true, failing: false });
    const { result } = await attack();
    expect(result.status).toBe('succeeded');
    expect(result.tasks[0].output).toEqual({ found: 0, inputs: 0, mine: true });
  });

  it('where bwrap cannot start a sandbox, the default runs attempts unsandboxed and says so as the worker starts', async ({
    expect,
  }) => {
    const missing = sandboxOf('auto', '/nonexistent/bwrap');
    const state = sandboxAtStart(missing);
    expect(state).toMatchObject({ isolated: false, failing: false });
    expect(state.line).toContain('attempts are NOT isolated from each other: /nonexistent/bwrap cannot start');
    const worker = await workerForTest({ config: testConfig({ sandbox: missing }) });
    const command = 'echo "::teamrun-output::$$"';
    const run = await runForTest(
      { name: 'sandbox-missing', tasks: [{ key: 'pid', executor: { kind: 'shell', command } }] },
      worker,
    );
    const result = await run.result();
    expect(result.tasks[0]).toMatchObject({ status: 'succeeded' });
    // The host's pid, not 2 as in a namespace of its own.
    expect(result.tasks[0].output).toBeGreaterThan(2);
    // `on` asked for it: the attempt fails rather than run unsandboxed.
    const strict = await workerForTest({ config: testConfig({ sandbox: sandboxOf('on', '/nonexistent/bwrap') }) });
    const refused = await runForTest(
      {
        name: 'sandbox-required',
        retry: { maxAttempts: 1 },
        tasks: [{ key: 'pid', executor: { kind: 'shell', command } }],
      },
      strict,
    );
    const failed = (await refused.result()).tasks[0];
    expect(failed).toMatchObject({ status: 'failed', attempts: 1 });
    expect(failed.lastError).toContain('worker.sandbox.mode is "on" but /nonexistent/bwrap cannot start a sandbox');
  });

  it("under the default sandbox, a task's whole tree ends with it: a background child and a setsid daemon, on timeout", async ({
    expect,
  }) => {
    const dir = tempDir('sandbox-tree');
    const mark = `TREE_MARK=${dir}`;
    const worker = await workerForTest({ config: testConfig() });
    const command = 'echo $$ > "$TREE_MARK/pid"; sleep 600 & (setsid sleep 600 &); sleep 600';
    const run = await runForTest(
      {
        name: 'sandbox-tree',
        retry: { maxAttempts: 1 },
        awaitAdjudication: false,
        tasks: [{ key: 'slow', executor: { kind: 'shell', timeoutMs: 5_000, command, env: { TREE_MARK: dir } } }],
      },
      worker,
    );
    const pids = await sandboxedTree(mark, () => existsSync(path.join(dir, 'pid')));
    // In the sandbox the shell is pid 2 of its own namespace (bwrap's init is 1).
    expect(readFileSync(path.join(dir, 'pid'), 'utf8').trim()).toBe('2');
    const result = await run.result();
    expect(result.tasks[0]).toMatchObject({ status: 'failed' });
    await waitFor('every process of the tree to be gone', () => !pids.some(alive), 60_000, 50);
    expect(hostPidsWithEnv(mark)).toEqual([]);
  });

  it('a worker killed with kill -9 takes its attempts with it: nothing the task started runs on', async ({
    expect,
  }) => {
    const dir = tempDir('sandbox-worker-killed');
    const mark = `KILLED_MARK=${dir}`;
    const queue = uniqueQueue('sandbox-worker-killed');
    // A worker process with the default sandbox (test/helpers/worker.yaml), alone on its queue.
    const victim = await spawnWorker(
      queue,
      'sandbox-victim',
      undefined,
      path.resolve(__dirname, '../helpers/worker.yaml'),
    );
    const command = 'sleep 600 & (setsid sleep 600 &); sleep 600';
    await startLeaseRun(
      {
        name: 'sandbox-worker-killed',
        awaitAdjudication: false,
        tasks: [{ key: 'long', executor: { kind: 'shell', command, env: { KILLED_MARK: dir } } }],
      },
      queue,
    );
    const pids = await sandboxedTree(mark);
    victim.child.kill('SIGKILL');
    await victim.exited;
    // Without bwrap's --die-with-parent every one of them ran on, reparented to init, its lease already lost.
    await waitFor("every process of the killed worker's attempt to be gone", () => !pids.some(alive), 10_000, 50);
    expect(hostPidsWithEnv(mark)).toEqual([]);
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
