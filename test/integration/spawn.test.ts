import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { TeamPlanInput } from '../../src/plan/schema';
import * as msg from '../../src/workflows/messages';
import { teamrun } from '../cli/teamrun-cli';
import { loadRunReport, renderReportHtml, renderReportText } from '../../src/report';
import { temporalAddress, temporalBinary, testClient, testConfig, waitFor } from '../helpers/env';
import { startOpenAiServer } from '../helpers/openai-server';
import { runForTest, workerForTest } from '../helpers/scenario';

type TaskInput = TeamPlanInput['tasks'][number];

const root = path.resolve(__dirname, '..', '..');
const teamrunBin = `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(root, 'bin/teamrun.js'))}`;
const sq = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-spawn-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Five workers that each write a file, and a merge that depends on all five and counts their outputs. */
function subtasks(dir: string): TaskInput[] {
  const workers = [1, 2, 3, 4, 5].map((n): TaskInput => ({
    key: `part-${n}`,
    executor: { kind: 'shell', command: `echo part-${n} >> ${dir}/parts; echo '::teamrun-output::{"part":${n}}'` },
  }));
  const merge: TaskInput = {
    key: 'merge',
    dependsOn: workers.map((w) => w.key),
    executor: { kind: 'shell', command: `echo "::teamrun-output::{\\"lines\\":$(wc -l < ${dir}/parts)}"` },
  };
  return [...workers, merge];
}

const keysOf = (tasks: Array<{ key: string }>) => tasks.map((t) => t.key).sort();

describe('dynamic teams: tasks that add tasks', () => {
  it('a planner prints 5 subtasks and a merge; its failed first attempt adds nothing, its retry adds them once, and the run succeeds with 7', async () => {
    const dir = tempDir();
    const line = `::teamrun-tasks::${JSON.stringify({ tasks: subtasks(dir) })}`;
    const worker = await workerForTest();
    const handle = await runForTest(
      {
        name: 'spawn-planner',
        teammates: 3,
        retry: { maxAttempts: 2, backoffMs: 200 },
        tasks: [
          {
            key: 'planner',
            allowSpawn: true,
            // Prints its plan on every attempt; the first attempt then fails.
            executor: { kind: 'shell', command: `printf '%s\\n' ${sq(line)}; test "$TEAMRUN_ATTEMPT" -ge 2` },
          },
        ],
      },
      worker,
    );
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    expect(result.stats).toMatchObject({ total: 7, succeeded: 7 });
    expect(result.executions).toBe(8);
    const tasks = await handle.query(msg.tasksQuery);
    expect(keysOf(tasks)).toEqual(['merge', 'part-1', 'part-2', 'part-3', 'part-4', 'part-5', 'planner']);
    expect(tasks.find((t) => t.key === 'planner')).toMatchObject({ attempts: 2, parent: null, depth: 0 });
    for (const t of tasks.filter((t) => t.key !== 'planner'))
      expect(t).toMatchObject({ parent: 'planner', depth: 1, attempts: 1 });
    expect(tasks.find((t) => t.key === 'merge')?.output).toEqual({ lines: 5 });
    const { events } = await handle.query(msg.eventsQuery, { limit: 1_000 });
    const added = events.filter((e) => e.type === 'task:added');
    expect(added).toEqual([expect.objectContaining({ count: 6, parent: 'planner', depth: 1, requestId: 'planner#2' })]);

    // The Web UI's current details and the report show the tree and how many tasks were added.
    const { currentDetails } = await handle.query<{ currentDetails?: string }>('__temporal_workflow_metadata');
    expect(currentDetails).toContain('- added while running: 6 task(s)');
    expect(currentDetails).toContain('  - `planner` -> `part-1`, `part-2`, `part-3`, `part-4`, `part-5` and 1 more');
    const report = await loadRunReport(await testClient(), handle.workflowId);
    expect(report.spawned).toEqual({
      added: 6,
      tree: [{ parent: 'planner', children: ['part-1', 'part-2', 'part-3', 'part-4', 'part-5', 'merge'] }],
    });
    const text = renderReportText(report);
    expect(text).toContain('added while running: 6 tasks\n  planner -> part-1, part-2, part-3, part-4, part-5, merge');
    const html = renderReportHtml(report);
    expect(html).toContain('<h2>Added while running</h2>');
    expect(html).toContain('<li><code>planner</code> → <code>part-1</code>');
  });

  it('teamrun add-tasks inside a task adds at once, fenced; the retry with the same request id adds nothing twice; a stale attempt is refused', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'tasks.json'), JSON.stringify({ tasks: subtasks(dir) }));
    const worker = await workerForTest();
    const planner =
      `${teamrunBin} add-tasks --request-id planner-subtasks ${dir}/tasks.json > ${dir}/answer-$TEAMRUN_ATTEMPT.txt 2>&1 || exit 3; ` +
      `if [ "$TEAMRUN_ATTEMPT" = 1 ]; then exit 1; fi; ` +
      // The second attempt holds until the test has tried the first attempt's token.
      `while [ ! -f ${dir}/go ]; do sleep 0.1; done`;
    const handle = await runForTest(
      {
        name: 'spawn-cli',
        teammates: 3,
        retry: { maxAttempts: 2, backoffMs: 200 },
        tasks: [{ key: 'planner', allowSpawn: true, executor: { kind: 'shell', command: planner } }],
      },
      worker,
    );
    // The answer file is there when the command starts, and filled when it ends.
    await waitFor(
      "the planner's second attempt",
      () =>
        existsSync(path.join(dir, 'answer-2.txt')) &&
        readFileSync(path.join(dir, 'answer-2.txt'), 'utf8').endsWith('\n'),
      90_000,
    );
    const answers = [1, 2].map((n) => readFileSync(path.join(dir, `answer-${n}.txt`), 'utf8'));
    expect(answers[0]).toBe('added: part-1, part-2, part-3, part-4, part-5, merge\n');
    expect(answers[1]).toBe('already added by this request: part-1, part-2, part-3, part-4, part-5, merge\n');

    // The first attempt's token, as a process it left behind would send it: refused, nothing added.
    const stale = await teamrun(
      ['add-tasks', '--tasks', JSON.stringify({ tasks: [{ key: 'late', executor: { kind: 'noop' } }] })],
      {
        TEAMRUN_WORKFLOW_ID: handle.workflowId,
        TEAMRUN_TASK_KEY: 'planner',
        TEAMRUN_FENCING_TOKEN: '1',
      },
    );
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('addTasks rejected: stale_attempt');
    expect(stale.stderr).toContain('fencing token 1 of "planner" is not its current attempt\'s (2)');

    writeFileSync(path.join(dir, 'go'), '');
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    expect(result.stats).toMatchObject({ total: 7, succeeded: 7 });
    expect(keysOf(result.tasks)).not.toContain('late');
    const { events } = await handle.query(msg.eventsQuery, { limit: 1_000 });
    expect(events.filter((e) => e.type === 'task:added')).toHaveLength(1);
  });

  it('maxSpawnedTasks: 3 sends a planner that asks for 6 to adjudication with TEAM_TASK_SPAWN_LIMIT_EXCEEDED, and adds nothing', async () => {
    const dir = tempDir();
    const line = `::teamrun-tasks::${JSON.stringify({ tasks: subtasks(dir) })}`;
    const worker = await workerForTest();
    const handle = await runForTest(
      {
        name: 'spawn-limit',
        budget: { maxSpawnedTasks: 3 },
        tasks: [
          {
            key: 'planner',
            allowSpawn: true,
            executor: { kind: 'shell', command: `printf '%s\\n' ${sq(line)}; echo '::teamrun-output::{"planned":6}'` },
          },
        ],
      },
      worker,
    );
    await waitFor(
      'the planner in adjudication',
      async () => (await handle.query(msg.statusQuery)).state === 'awaiting_adjudication',
      60_000,
    );
    const [record] = await handle.query(msg.adjudicationsQuery);
    expect(record).toMatchObject({
      key: 'planner',
      code: 'TEAM_TASK_SPAWN_LIMIT_EXCEEDED',
      result: { planned: 6 },
      decision: null,
    });
    expect(record.reason).toContain(
      'max-spawned-tasks: addTasks: adding 6 task(s) to the 0 already added would pass budget.maxSpawnedTasks (3)',
    );
    expect(keysOf(await handle.query(msg.tasksQuery))).toEqual(['planner']);
    await handle.executeUpdate(msg.adjudicateUpdate, {
      args: [{ key: 'planner', decision: 'reject', decisionId: 'd1', reason: 'too many' }],
    });
    const result = await handle.result();
    expect(result).toMatchObject({ status: 'failed', stats: { total: 1, failed: 1 } });
  });

  it('a human adds a task with `temporal workflow update execute --name addTasks`', async () => {
    const dir = tempDir();
    const worker = await workerForTest();
    const handle = await runForTest(
      {
        name: 'spawn-human',
        tasks: [
          {
            key: 'gate',
            executor: {
              kind: 'shell',
              command: `while [ ! -f ${dir}/go ]; do sleep 0.1; done; echo '::teamrun-output::"opened"'`,
            },
          },
        ],
      },
      worker,
    );
    await waitFor('the gate to start', async () => (await handle.query(msg.activeClaimsQuery)).length === 1);
    const request = {
      requestId: 'human-1',
      actor: 'alice',
      tasks: [
        {
          key: 'after-gate',
          dependsOn: ['gate'],
          executor: { kind: 'shell', command: 'echo "::teamrun-output::{\\"got\\":$TEAMRUN_INPUTS}"' },
        },
      ],
    };
    const { stdout } = await promisify(execFile)(temporalBinary(), [
      'workflow',
      'update',
      'execute',
      '--address',
      temporalAddress(),
      '--workflow-id',
      handle.workflowId,
      '--name',
      'addTasks',
      '--input',
      JSON.stringify(request),
    ]);
    expect(stdout).toContain('after-gate');
    // The same request through teamrun, from outside the run: idempotent by its request id.
    const again = await teamrun([
      'add-tasks',
      handle.workflowId,
      '--request-id',
      'human-1',
      '--actor',
      'alice',
      '--tasks',
      JSON.stringify({ tasks: request.tasks }),
    ]);
    expect(again.stdout).toBe('already added by this request: after-gate\n');
    const refused = await promisify(execFile)(temporalBinary(), [
      'workflow',
      'update',
      'execute',
      '--address',
      temporalAddress(),
      '--workflow-id',
      handle.workflowId,
      '--name',
      'addTasks',
      '--input',
      JSON.stringify({
        requestId: 'human-2',
        tasks: [{ key: 'typo', dependsOn: ['gaet'], executor: { kind: 'noop' } }],
      }),
    ]).then(
      () => null,
      (err: { stderr?: string; stdout?: string }) => `${err.stdout ?? ''}${err.stderr ?? ''}`,
    );
    expect(refused).toContain('unknown_dependency');
    expect(refused).toContain(
      'tasks[0].dependsOn[0]: unknown task "gaet": not in the run nor in this request (did you mean "gate"?)',
    );
    writeFileSync(path.join(dir, 'go'), '');
    const result = await handle.result();
    expect(result).toMatchObject({ status: 'succeeded', stats: { total: 2, succeeded: 2 } });
    expect(result.tasks.find((t) => t.key === 'after-gate')).toMatchObject({
      parent: null,
      depth: 0,
      output: { got: { gate: 'opened' } },
    });
    const { events } = await handle.query(msg.eventsQuery, { limit: 1_000 });
    expect(events.find((e) => e.type === 'task:added')).toMatchObject({
      actor: 'alice',
      requestId: 'human-1',
      keys: ['after-gate'],
    });
  });

  it('an llm planner with allowSpawn answers its tasks in JSON; llm workers and a merge run them', async () => {
    const server = await startOpenAiServer();
    onTestFinished(() => server.close());
    const plan = {
      tasks: [
        ...['intro', 'body', 'outro'].map((part) => ({
          key: `write-${part}`,
          executor: { kind: 'llm', model: 'writer', prompt: `Write the ${part}` },
        })),
        {
          key: 'merge',
          dependsOn: ['write-intro', 'write-body', 'write-outro'],
          executor: {
            kind: 'llm',
            model: 'editor',
            prompt:
              'Join: {{outputs.write-intro.content}} / {{outputs.write-body.content}} / {{outputs.write-outro.content}}',
          },
        },
      ],
    };
    server.model('planner', { content: JSON.stringify(plan), usage: { promptTokens: 50, completionTokens: 80 } });
    server.model('writer', { content: 'a paragraph', usage: { promptTokens: 10, completionTokens: 20 } });
    const worker = await workerForTest({
      config: testConfig({ llm: { baseUrl: server.baseUrl, apiKeyEnv: 'TEAMRUN_TEST_NO_KEY' } }),
    });
    const handle = await runForTest(
      {
        name: 'spawn-llm',
        teammates: 3,
        budget: { maxSpawnedTasks: 10, maxDepth: 1 },
        tasks: [
          {
            key: 'plan',
            allowSpawn: true,
            executor: { kind: 'llm', model: 'planner', prompt: 'Split the essay into parts, answer {"tasks":[...]}' },
          },
        ],
      },
      worker,
    );
    const result = await handle.result();
    expect(result).toMatchObject({ status: 'succeeded', stats: { total: 5, succeeded: 5 } });
    expect(result.tasks.find((t) => t.key === 'merge')).toMatchObject({
      parent: 'plan',
      depth: 1,
      output: { content: 'Join: a paragraph / a paragraph / a paragraph' },
    });
    const planRequest = server.requests.find((r) => r.model === 'planner');
    expect(planRequest).toBeDefined();
    expect(server.requests.filter((r) => r.model === 'writer')).toHaveLength(3);
  });
});
