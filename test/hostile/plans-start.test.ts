import { describe, expect, it } from 'vitest';
import { PLAN_LIMITS } from '../../src/plan/schema';
import { WORKFLOW_TYPE } from '../../src/workflows/messages';
import { testClient, uniqueQueue } from '../helpers/env';
import { workerForTest } from '../helpers/scenario';
import { teamrun } from '../cli/teamrun-cli';
import { expectLiveWorker, refusal, workflowTaskFailures } from './corpus';

const noop = { kind: 'noop' };
const task = (key: string, extra: Record<string, unknown> = {}) => ({ key, executor: noop, ...extra });
const plan = (tasks: unknown[], extra: Record<string, unknown> = {}) => ({ name: 'hostile', tasks, ...extra });
const shell = (command: string, extra: Record<string, unknown> = {}) => ({ kind: 'shell', command, ...extra });

/** A plan of 20,000 tasks with 30 misspelt dependencies: the workflow used to time out checking it, in a loop. */
function slowToCheck() {
  const key = (i: number) => `task-${String(i).padStart(5, '0')}`;
  return plan(
    Array.from({ length: 20_000 }, (_, i) => ({
      key: key(i),
      executor: noop,
      ...(i > 0 && i % 666 === 0 ? { dependsOn: [key(i - 1).replace('task', 'tsak')] } : {}),
    })),
  );
}

/** Hostile plans sent straight to the workflow (as the `temporal` CLI or any client could): each is refused with its problem and path. */
const refused: Array<[string, unknown, RegExp]> = [
  [
    'executor kind "constructor"',
    plan([{ key: 'a', executor: { kind: 'constructor' } }]),
    /tasks\[0\]\.executor\.kind: executor kind "constructor" is a reserved name/,
  ],
  ['executor kind "toString"', plan([{ key: 'a', executor: { kind: 'toString' } }]), /reserved name/],
  ['executor kind "__proto__"', plan([{ key: 'a', executor: { kind: '__proto__' } }]), /reserved name/],
  ['executor kind "hasOwnProperty"', plan([{ key: 'a', executor: { kind: 'hasOwnProperty' } }]), /reserved name/],
  [
    'a shell timeout of 3e9 ms',
    plan([{ key: 'a', executor: shell('true', { timeoutMs: 3e9 }) }]),
    /tasks\[0\]\.executor\.timeoutMs: at most 2147483647 ms/,
  ],
  [
    'a sleep of 3e9 ms',
    plan([{ key: 'a', executor: { kind: 'sleep', ms: 3e9 } }]),
    /tasks\[0\]\.executor\.ms: at most 2147483647/,
  ],
  [
    'a wall budget past 2^31-1 ms',
    plan([task('a')], { budget: { maxWallMs: 2 ** 31 } }),
    /budget\.maxWallMs: at most 2147483647/,
  ],
  [
    'an adjudication timeout past 2^31-1 ms',
    plan([task('a')], { adjudicationTimeoutMs: 1e12 }),
    /adjudicationTimeoutMs: at most/,
  ],
  [
    'a scope with ".."',
    plan([task('a', { scope: ['docs/../../etc'] })]),
    /tasks\[0\]\.scope\[0\]: scope "docs\/\.\.\/\.\.\/etc" has a "\.\." segment/,
  ],
  [
    'an absolute scope outside the workspace',
    plan([task('a', { scope: ['/etc'] })]),
    /absolute path outside the workspace/,
  ],
  [
    'a plan over the JSON bound',
    plan(Array.from({ length: 26 }, (_, i) => ({ key: `t${i}`, executor: shell(`${i}${'x'.repeat(62_000)}`) }))),
    /plan_too_large|the plan is \d+ bytes of JSON, over the 1572864-byte bound/,
  ],
  [
    'a plan whose packed form leaves no room for its state',
    plan(Array.from({ length: 14 }, (_, i) => ({ key: `t${i}`, executor: shell(`${i}${'y'.repeat(50_000)}`) }))),
    /packs to \d+ bytes, over the 655360-byte bound/,
  ],
  [
    '20,000 tasks with 30 misspelt dependencies',
    slowToCheck(),
    /tasks\[19980\]\.dependsOn\[0\]: unknown task "tsak-19979" \(did you mean "task-19979"\?\)/,
  ],
  [
    'a thousand unknown dependencies',
    plan([task('a', { dependsOn: Array.from({ length: 1_000 }, (_, i) => `nope-${i}`) })]),
    /tasks\[0\]\.dependsOn\[999\]: unknown task "nope-999"/,
  ],
  ['tasks that is not a list', { name: 'hostile', tasks: 'all of them' }, /tasks: /],
  ['a plan that is a string', 'run everything', /\(plan\)|expected object/],
  ['a plan that is a list', [task('a')], /expected object/],
  ['a plan that is null', null, /expected object/],
  ['a name with terminal escapes', { name: 'x\u001b[2J', tasks: [task('a')] }, /name: name must be/],
  ['no tasks', plan([]), /tasks: a plan needs at least one task/],
  ['duplicate keys', plan([task('a'), task('a')]), /tasks\[1\]\.key: duplicate task key "a"/],
  [
    'a cycle',
    plan([task('a', { dependsOn: ['b'] }), task('b', { dependsOn: ['a'] })]),
    /dependency cycle: a -> b -> a/,
  ],
  ['a task depending on itself', plan([task('a', { dependsOn: ['a'] })]), /depends on itself/],
  ['zero teammates', plan([task('a')], { teammates: 0 }), /teammates/],
  ['1,001 teammates', plan([task('a')], { teammates: PLAN_LIMITS.maxTeammates + 1 }), /teammates/],
  ['a million attempts', plan([task('a', { retry: { maxAttempts: 1e6 } })]), /tasks\[0\]\.retry\.maxAttempts/],
  ['a negative estimate', plan([task('a', { estimate: { tokens: -5 } })]), /tasks\[0\]\.estimate\.tokens/],
  ['a 10 ms lease', plan([task('a')], { lease: { ttlMs: 10 } }), /lease\.ttlMs/],
  ['continue-as-new after 1 event', plan([task('a')], { continueAsNewAfterEvents: 1 }), /continueAsNewAfterEvents/],
  ['a 129-char key', plan([task('k'.repeat(129))]), /tasks\[0\]\.key: task key must be/],
  ['65 scopes', plan([task('a', { scope: Array.from({ length: 65 }, (_, i) => `s${i}`) })]), /tasks\[0\]\.scope/],
  ['an unknown priority', plan([task('a', { priority: 'urgent' })]), /tasks\[0\]\.priority/],
  ['an unknown plan field', plan([task('a')], { sudo: true }), /sudo|unrecognized/i],
  [
    'a file:// url',
    plan([{ key: 'a', executor: { kind: 'http', url: 'file:///etc/passwd' } }]),
    /url must be an http\(s\) URL/,
  ],
  [
    'an llm task with prompt and messages',
    plan([
      { key: 'a', executor: { kind: 'llm', model: 'm', prompt: 'p', messages: [{ role: 'user', content: 'c' }] } },
    ]),
    /exactly one of "prompt" or "messages"/,
  ],
  ['a 70 KB command', plan([{ key: 'a', executor: shell('x'.repeat(70_000)) }]), /tasks\[0\]\.executor\.command/],
];

/** Hostile plans that are valid: each runs to a clean end. */
const runs: Array<
  [
    string,
    unknown,
    (result: {
      status: string;
      tasks: Array<{ key: string; status: string; output?: unknown; lastError: string | null }>;
    }) => void,
  ]
> = [
  [
    'a task keyed __proto__ keeps its output for its dependents',
    plan([
      { key: '__proto__', executor: shell('echo \'::teamrun-output::{"v":1}\'') },
      { key: 'constructor', dependsOn: ['__proto__'], executor: shell('echo "::teamrun-output::$TEAMRUN_INPUTS"') },
    ]),
    (result) => {
      expect(result.status).toBe('succeeded');
      expect(JSON.stringify(result.tasks[1].output)).toBe('{"__proto__":{"v":1}}');
    },
  ],
  [
    'a misspelt kind fails its task cleanly, naming the kind',
    plan([{ key: 'a', executor: { kind: 'shel', command: 'true' } }]),
    (result) => {
      expect(result.tasks[0]).toMatchObject({
        status: 'failed',
        lastError: expect.stringContaining('executor kind "shel" is not enabled'),
      });
    },
  ],
  [
    'an env key __proto__ is data, not a prototype',
    plan([{ key: 'a', executor: shell('echo ok', { env: JSON.parse('{"__proto__":"x","A":"1"}') }) }]),
    (result) => expect(result.status).toBe('succeeded'),
  ],
  [
    'a title full of terminal escapes is kept as data',
    plan([task('a', { title: '\u001b]0;pwned\u0007\u001b[2J\u202e' })]),
    (result) => expect(result.status).toBe('succeeded'),
  ],
  [
    'scope "*" is exclusive with every scoped task',
    plan([task('all', { scope: ['*'] }), task('docs', { scope: ['./docs//'] }), task('free')], { teammates: 3 }),
    (result) => expect(result.status).toBe('succeeded'),
  ],
];

describe('hostile plans through the public start path (client, as the temporal CLI would)', () => {
  it(`refuses ${refused.length} bad plans cleanly and runs ${runs.length} odd ones to a clean end; zero workflow-task failures, the worker lives`, async () => {
    const worker = await workerForTest();
    const client = await testClient();
    const start = (name: string, input: unknown) =>
      client.workflow.start(WORKFLOW_TYPE, {
        taskQueue: worker.taskQueue,
        workflowId: uniqueQueue('hostile-plan'),
        args: [input],
        staticSummary: name,
      });

    const refusals = await Promise.all(
      refused.map(async ([name, input, expected]) => {
        const handle = await start(name, input);
        const message = await refusal(handle);
        return {
          name,
          ok: expected.test(message) && message.startsWith('InvalidTeamPlan'),
          message: message.slice(0, 300),
          failures: await workflowTaskFailures(handle),
        };
      }),
    );
    expect(refusals.filter((r) => !r.ok)).toEqual([]);
    expect(refusals.filter((r) => r.failures.length > 0)).toEqual([]);

    for (const [name, input, check] of runs) {
      const handle = await start(name, input);
      check(await handle.result());
      expect(await workflowTaskFailures(handle)).toEqual([]);
      if (name.startsWith('a title full of terminal escapes')) {
        // `teamrun report` shows the title with its control characters escaped, as `teamrun tasks` does.
        const report = await teamrun(['report', handle.workflowId]);
        expect(report.stdout).toContain('"\\x1b]0;pwned\\x07\\x1b[2J\\u202e"');
        // oxlint-disable-next-line no-control-regex -- asserts that no control character is left
        expect(report.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202e]/);
      }
    }
    await expectLiveWorker(worker);
  });
});
