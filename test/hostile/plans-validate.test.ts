import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { teamrun } from '../cli/teamrun-cli';

const dir = mkdtempSync(path.join(tmpdir(), 'teamrun-hostile-validate-'));
const file = (name: string, plan: unknown) => {
  const at = path.join(dir, name);
  writeFileSync(at, typeof plan === 'string' ? plan : JSON.stringify(plan));
  return at;
};
/** A worker config that restricts commands: the plan's env may then not choose the program. */
// The plan's own names are the operator's to allow (worker.shell.planEnv); `restrictedDefault` keeps the default list.
const restricted = file(
  'restricted.yaml',
  'worker: { shell: { allowCommands: ["ls", "npm run build"], planEnv: [TARGET, NODE_ENV, GIT_AUTHOR_NAME] } }\n',
);
const restrictedDefault = file('restricted-default.yaml', 'worker: { shell: { allowCommands: ["ls"] } }\n');
const shellWithEnv = (env: Record<string, unknown>) => ({ kind: 'shell', command: 'ls', env });
const one = (executor: unknown, extra: Record<string, unknown> = {}) => ({
  name: 'v',
  tasks: [{ key: 'a', executor, ...extra }],
});

/** `teamrun validate` on hostile plan files: each is a clean list of problems with paths (exit 1), never a stack trace. */
const cases: Array<[string, unknown, string[], RegExp[]]> = [
  [
    'kind "constructor" (was a TypeError with a stack)',
    one({ kind: 'constructor' }),
    [],
    [/tasks\[0\]\.executor\.kind: executor kind "constructor" is a reserved name/],
  ],
  ['kind "__proto__"', one({ kind: '__proto__' }), [], [/reserved name/]],
  [
    'a misspelt built-in kind',
    one({ kind: 'shel', command: 'true' }),
    [],
    [/tasks\[0\]\.executor\.kind: unknown executor kind "shel" \(did you mean "shell"\?\)/],
  ],
  ['a misspelt custom kind', one({ kind: 'acme.deplyo' }), ['--kind', 'acme.deploy'], [/did you mean "acme\.deploy"/]],
  [
    'timeoutMs: 3e9',
    one({ kind: 'shell', command: 'true', timeoutMs: 3e9 }),
    [],
    [/tasks\[0\]\.executor\.timeoutMs: at most 2147483647 ms/],
  ],
  [
    'a scope outside the workspace',
    one({ kind: 'noop' }, { scope: ['../../home'] }),
    [],
    [/tasks\[0\]\.scope\[0\]: scope "\.\.\/\.\.\/home" has a "\.\." segment/],
  ],
  [
    'a 1.7 MB plan with 30 misspelt dependencies of 20,000 (took minutes, now checked at once)',
    {
      name: 'big',
      tasks: Array.from({ length: 20_000 }, (_, i) => ({
        key: `task-${String(i).padStart(5, '0')}-of-the-nightly-documentation-build`,
        executor: { kind: 'noop' },
        ...(i > 0 && i % 666 === 0
          ? { dependsOn: [`tsak-${String(i - 1).padStart(5, '0')}-of-the-nightly-documentation-build`] }
          : {}),
      })),
    },
    [],
    [
      /\(plan\): the plan is \d+ bytes of JSON, over the 1572864-byte bound/,
      /tasks\[19980\]\.dependsOn\[0\]: unknown task "tsak-19979-of-the-nightly-documentation-build" \(did you mean "task-19979-of-the-nightly-documentation-build"\?\)/,
    ],
  ],
  [
    'env PATH under allowCommands',
    {
      name: 'v',
      tasks: [
        { key: 'a', executor: { kind: 'noop' } },
        { key: 'b', executor: { kind: 'noop' } },
        { key: 'c', executor: shellWithEnv({ PATH: '/tmp/planted:/usr/bin', TARGET: 'prod' }) },
      ],
    },
    ['--config', restricted],
    [
      /tasks\[2\]\.executor\.env\.PATH: may not be set by a plan on a worker that restricts commands \(worker\.shell\.allowCommands\)/,
      /: 1 problem\(s\)/,
    ],
  ],
  [
    'env CC and http_proxy under allowCommands: not in the default worker.shell.planEnv',
    one(shellWithEnv({ CC: '/tmp/planted-cc', http_proxy: 'http://127.0.0.1:9' })),
    ['--config', restrictedDefault],
    [
      /tasks\[0\]\.executor\.env\.CC: may not be set .*: it is not in worker\.shell\.planEnv \(CI, NO_COLOR/,
      /tasks\[0\]\.executor\.env\.http_proxy: may not be set/,
      /: 2 problem\(s\)/,
    ],
  ],
  [
    'env NODE_OPTIONS and LD_PRELOAD under allowCommands (and in the idle hook)',
    {
      ...one(shellWithEnv({ NODE_OPTIONS: '--import=data:text/javascript,process.exit(7)' })),
      hooks: { teammateIdle: { executor: shellWithEnv({ LD_PRELOAD: '/tmp/x.so' }) } },
    },
    ['--config', restricted],
    [
      /tasks\[0\]\.executor\.env\.NODE_OPTIONS: may not be set .* \(every NODE_\* variable\)/,
      /hooks\.teammateIdle\.executor\.env\.LD_PRELOAD: may not be set/,
    ],
  ],
  [
    'env names in another case, and a name no shell can export',
    one(shellWithEnv({ Path: '/tmp', 'BASH_FUNC_ls%%': '() { id; }' })),
    ['--config', restricted],
    [/tasks\[0\]\.executor\.env\.Path: may not be set/, /env\.BASH_FUNC_ls%%: is not a plain variable name/],
  ],
];

describe('teamrun validate on hostile plan files', () => {
  it.each(cases)('%s', async (_, plan, flags, expected) => {
    const result = await teamrun(['validate', file(`${Math.random().toString(36).slice(2)}.json`, plan), ...flags]);
    expect(result.code).toBe(1);
    for (const pattern of expected) expect(result.stderr).toMatch(pattern);
    expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('a custom kind declared with --kind passes', async () => {
    const result = await teamrun([
      'validate',
      file('custom.json', one({ kind: 'acme.deploy', target: 'prod' })),
      '--kind',
      'acme.deploy',
    ]);
    expect(result).toMatchObject({ code: 0, stdout: expect.stringContaining('ok (1 tasks') });
  });

  it('a plan env is not checked without allowCommands, and other names pass with it', async () => {
    const free = await teamrun(['validate', file('free.json', one(shellWithEnv({ PATH: '/opt/tools/bin' })))]);
    expect(free).toMatchObject({ code: 0, stdout: expect.stringContaining('ok (1 tasks') });
    const plain = one(shellWithEnv({ TARGET: 'prod', NODE_ENV: 'production', GIT_AUTHOR_NAME: 'ci' }));
    const restrictedOk = await teamrun(['validate', file('plain.json', plain), '--config', restricted]);
    expect(restrictedOk).toMatchObject({ code: 0, stdout: expect.stringContaining('ok (1 tasks') });
  });
});
