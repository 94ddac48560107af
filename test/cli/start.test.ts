import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { temporalAddress, testClient, uniqueQueue } from '../helpers/env';
import { workerForSuite } from '../helpers/scenario';
import { teamrun } from './teamrun-cli';

const dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-cli-'));
function writePlan(name: string, plan: unknown): string {
  const file = path.join(dir, name);
  writeFileSync(file, typeof plan === 'string' ? plan : JSON.stringify(plan, null, 2));
  return file;
}

describe('teamrun validate', () => {
  it('prints every problem with its path and a did-you-mean, and exits 1', async () => {
    const file = writePlan(
      'typo.yaml',
      [
        'name: typo',
        'tasks:',
        '  - { key: build, executor: { kind: noop } }',
        '  - { key: test, dependsOn: [bulid], executor: { kind: noop } }',
        '  - { key: test, executor: { kind: shell } }',
      ].join('\n'),
    );
    const { code, stderr } = await teamrun(['validate', file]);
    expect(code).toBe(1);
    expect(stderr).toContain('tasks[1].dependsOn[0]: unknown task "bulid" (did you mean "build"?)');
    expect(stderr).toContain('tasks[2].key: duplicate task key "test"');
    expect(stderr).toContain('tasks[2].executor.command');
  });

  it("names an agent's tool on an MCP server the config does not have, with a did-you-mean", async () => {
    const config = path.join(dir, 'tools.yaml');
    writeFileSync(config, 'worker:\n  mcpServers:\n    fs: { command: mcp-server-filesystem, args: [/srv] }\n');
    const agent = (key: string, tools: string[]) => ({
      key,
      executor: { kind: 'agent', model: 'm', prompt: 'go', tools },
    });
    const file = writePlan('tools.json', {
      name: 'tools',
      tasks: [agent('reader', ['fs__read_file', 'teamrun__set_output']), agent('writer', ['fss__write_file', 'kb__*'])],
    });
    const refused = await teamrun(['validate', file, '--config', config]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'tasks[1].executor.tools[0]: task "writer": unknown tool "fss__write_file": the worker has no MCP server ' +
        '"fss" (did you mean "fs__write_file"?)',
    );
    expect(refused.stderr).toContain('tasks[1].executor.tools[1]: task "writer": unknown tool "kb__*"');
    expect(refused.stderr).not.toContain('tasks[0]');
    // A custom tool of the worker (createWorker's tools) is declared with --tool; without a config, nothing is known.
    const custom = await teamrun([
      'validate',
      file,
      '--config',
      config,
      '--tool',
      'kb__search',
      '--tool',
      'fss__write_file',
    ]);
    expect(custom).toMatchObject({ code: 0, stdout: expect.stringContaining('tools.json: ok (2 tasks') });
  });

  it('accepts a good plan and says what it holds', async () => {
    const { code, stdout, stderr } = await teamrun(['validate', 'examples/demo.yaml']);
    expect(code).toBe(0);
    expect(stdout).toContain('examples/demo.yaml: ok (4 tasks, 2 teammates)');
    // The quick start's plan gives every task an estimate: none holds a fair share its loss would be charged.
    expect(stderr).not.toContain('fair share');
  });
});

describe('teamrun start --wait, status and tasks against a real server', () => {
  const worker = workerForSuite();

  it('runs a plan to success, shows progress, prints the summary, and exits 0', async () => {
    const id = uniqueQueue('cli-ok');
    const file = writePlan('ok.json', {
      name: 'cli-ok',
      teammates: 2,
      tasks: [
        { key: 'a', executor: { kind: 'shell', command: 'echo \'::teamrun-output::{"n":2}\'' } },
        {
          key: 'b',
          dependsOn: ['a'],
          retry: { maxAttempts: 2, backoffMs: 100 },
          executor: {
            kind: 'shell',
            command:
              '[ "$TEAMRUN_ATTEMPT" = 2 ] || exit 1; n=$(node -p \'JSON.parse(process.env.TEAMRUN_INPUTS).a.n\'); echo "::teamrun-output::{\\"double\\":$((n*2))}"',
          },
        },
      ],
    });
    const { code, stdout, stderr } = await teamrun([
      'start',
      file,
      '--id',
      id,
      '--wait',
      '--task-queue',
      worker.taskQueue,
    ]);
    expect(stderr).toContain('2/2 done');
    expect(code, stdout + stderr).toBe(0);
    expect(stdout).toContain(`started ${id} on task queue "${worker.taskQueue}"`);
    expect(stdout).toMatch(/web ui: http:\/\/localhost:\d+\/namespaces\/default\/workflows\//);
    expect(stdout).toContain(`run ${id}: succeeded`);
    // b failed once and succeeded on its retry, with a new fencing token, from a's output.
    expect(stdout).toMatch(/\n\s+b\s+succeeded\s+2\s+2\s+teammate-\d\s+output \{"double":4\}/);

    const status = await teamrun(['status', id, '--json']);
    expect(status.code).toBe(0);
    const overview = JSON.parse(status.stdout);
    expect(overview).toMatchObject({
      workflowId: id,
      open: false,
      name: 'cli-ok',
      state: 'succeeded',
      pendingAdjudications: [],
    });
    expect(overview.stats).toMatchObject({ total: 2, succeeded: 2 });
    expect(overview.budget.used.tasks).toBe(3);

    const tasks = await teamrun(['tasks', id, '--status', 'succeeded', '--offset', '1']);
    expect(tasks.code).toBe(0);
    expect(tasks.stdout.split('\n')[0]).toMatch(/^KEY\s+STATUS\s+ATTEMPTS\s+TOKEN/);
    expect(tasks.stdout).toMatch(/\nb\s+succeeded\s+2\s+2/);
    expect(tasks.stdout).not.toMatch(/\na\s+/);
  });

  it('piped into a reader that stops after one line (`| head -1`), exits quietly: no EPIPE stack', async () => {
    const file = writePlan('pipe.json', {
      name: 'cli-pipe',
      tasks: [{ key: 'nap', executor: { kind: 'sleep', ms: 1_500 } }],
    });
    /** `teamrun start --wait` piped into `head -1` as bash runs it: what head printed, then teamrun's stderr and exit. */
    const pipeline = async (id: string, stderrTo: '"$ERR"' | '&1') => {
      const args = [
        'start',
        file,
        '--id',
        id,
        '--wait',
        '--task-queue',
        worker.taskQueue,
        '--address',
        temporalAddress(),
      ];
      const line =
        `node bin/teamrun.js ${args.map((a) => `'${a}'`).join(' ')} 2>${stderrTo} | head -1; ` +
        'echo "exit ${PIPESTATUS[0]}" >>"$ERR"';
      const err = path.join(dir, `${id}.stderr`);
      // Async: the suite's worker runs in this process and must keep running the task meanwhile.
      const shell = spawn('bash', ['-c', line], {
        cwd: path.resolve(__dirname, '..', '..'),
        env: { ...process.env, ERR: err, TEAMRUN_WORKFLOW_BUNDLE: inject('workflowBundle') },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      shell.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
      await new Promise((resolve) => shell.on('close', resolve));
      return { out, stderr: readFileSync(err, 'utf8') };
    };
    // `head -1` reads the run id and exits; every later line (web ui, the summary) meets a closed pipe.
    const id = uniqueQueue('cli-pipe');
    const piped = await pipeline(id, '"$ERR"');
    expect(piped.out).toBe(`started ${id} on task queue "${worker.taskQueue}"\n`);
    expect(piped.stderr).not.toMatch(/EPIPE|Error|\n\s+at /);
    // Its progress lines went to stderr; the summary met the closed pipe: then the command ended, 0.
    expect(piped.stderr.trim().split('\n').at(-1)).toBe('exit 0');
    // The run goes on and ends on its own, whoever stopped reading.
    const status = await teamrun(['status', id, '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({ workflowId: id });
    // With stderr in the same pipe, the progress lines meet the closed pipe too.
    const both = await pipeline(uniqueQueue('cli-pipe'), '&1');
    expect(both.out).toMatch(/^started /);
    expect(both.stderr.trim()).toBe('exit 0');
  });

  it('exits non-zero on a failing run and prints the failing task with its error', async () => {
    const id = uniqueQueue('cli-fail');
    const file = writePlan(
      'fail.yaml',
      [
        'name: cli-fail',
        'retry: { maxAttempts: 2, backoffMs: 100 }',
        'tasks:',
        '  - key: compile',
        '    executor: { kind: shell, command: "echo missing header foo.h >&2; exit 3" }',
        '  - key: ship',
        '    dependsOn: [compile]',
        '    executor: { kind: noop }',
      ].join('\n'),
    );
    const { code, stdout } = await teamrun(['start', file, '--id', id, '--wait', '--task-queue', worker.taskQueue]);
    expect(code).toBe(1);
    expect(stdout).toContain(`run ${id}: failed`);
    expect(stdout).toMatch(/\n\s+ship\s+skipped\s+0/);
    expect(stdout).toMatch(
      /failing tasks:\n\s+compile \(failed after 2 attempt\(s\)\): .*exit code 3.*missing header foo\.h/,
    );
  });

  it('refuses a bad plan before starting anything, and says when no worker polls the queue', async () => {
    const cycle = writePlan(
      'cycle.yaml',
      'name: c\ntasks:\n  - { key: a, dependsOn: [b], executor: { kind: noop } }\n  - { key: b, dependsOn: [a], executor: { kind: noop } }\n',
    );
    const bad = await teamrun(['start', cycle]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('dependency cycle: a -> b -> a');
    expect(bad.stdout).not.toContain('started');

    // Nobody polls this queue, so the run would sit still: the user is told why.
    const idle = uniqueQueue('cli-idle');
    const plan = writePlan('one.yaml', 'name: one\ntasks:\n  - { key: a, executor: { kind: noop } }\n');
    const started = await teamrun(['start', plan, '--task-queue', idle]);
    expect(started.code).toBe(0);
    expect(started.stdout).toMatch(/^started one-\S+ on task queue/);
    expect(started.stderr).toContain(`no worker polls task queue "${idle}" yet`);
  });
});

describe('teamrun start checks exactly what teamrun validate checks', () => {
  it('refuses a misspelt kind and a program-choosing env as validate does, and starts a custom kind the config declares', async () => {
    const misspelt = writePlan(
      'shel.yaml',
      'name: shel\ntasks:\n  - { key: a, executor: { kind: shel, command: "true" } }\n',
    );
    const expected = 'tasks[0].executor.kind: unknown executor kind "shel" (did you mean "shell"?)';
    for (const command of ['validate', 'start']) {
      const result = await teamrun([command, misspelt]);
      expect(result, command).toMatchObject({ code: 1, stdout: '' });
      expect(result.stderr, command).toContain(expected);
    }

    const restricted = path.join(dir, 'restricted.yaml');
    writeFileSync(restricted, 'worker: { shell: { allowCommands: ["ls"] } }\n');
    const planted = writePlan('path.json', {
      name: 'planted',
      tasks: [{ key: 'a', executor: { kind: 'shell', command: 'ls', env: { PATH: '/tmp/planted' } } }],
    });
    const refused = await teamrun(['--config', restricted, 'start', planted]);
    expect(refused).toMatchObject({ code: 1, stdout: '' });
    expect(refused.stderr).toContain('tasks[0].executor.env.PATH: may not be set by a plan');

    // The README's custom kind: declared once in the config, both commands know it.
    const project = path.join(dir, 'greet-project.yaml');
    writeFileSync(project, `worker: { customKinds: [greet] }\nconnection: { taskQueue: ${uniqueQueue('greet')} }\n`);
    const greet = writePlan(
      'greet.yaml',
      'name: greet\ntasks:\n  - { key: a, executor: { kind: greet, name: Ada } }\n',
    );
    expect(await teamrun(['--config', project, 'validate', greet])).toMatchObject({ code: 0 });
    const started = await teamrun(['--config', project, 'start', greet, '--json']);
    expect(started.code, started.stderr).toBe(0);
    const { workflowId } = JSON.parse(started.stdout) as { workflowId: string };
    await (await testClient()).workflow.getHandle(workflowId).terminate('test finished');
    // Without the declaration, start refuses it as validate does, saying how to declare it.
    const undeclared = await teamrun(['start', greet]);
    expect(undeclared.code).toBe(1);
    expect(undeclared.stderr).toContain('declare a custom kind with --kind or worker.customKinds in the config');
  });
});

describe('a bad temporal.yaml', () => {
  it('names each wrong field and its problem, without a stack trace', async () => {
    const config = path.join(dir, 'bad-temporal.yaml');
    writeFileSync(config, 'connection:\n  adress: 127.0.0.1:7233\nworker:\n  maxConcurrentAttempts: 0\n');
    const { code, stderr } = await teamrun(['--config', config, 'start', 'examples/demo.yaml']);
    expect(code).toBe(1);
    expect(stderr).toContain(`${config}: invalid config`);
    expect(stderr).toContain('connection: Unrecognized key: "adress"');
    expect(stderr).toMatch(/worker\.maxConcurrentAttempts: .*>=1/);
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
