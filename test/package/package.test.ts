import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/devserver/server';
import { temporalAddress, temporalBinary, uniqueQueue, waitFor } from '../helpers/env';

/**
 * The package as a user gets it: `npm pack`, installed from the tarball into a fresh project
 * outside the repository (no tsx, no sources), and used there: the `teamrun` command, a worker of
 * its own built with createWorker and a custom executor from defineExecutor, the client's typed
 * handle, and the declarations under TypeScript.
 */
const root = path.resolve(__dirname, '..', '..');
const run = promisify(execFile);
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
const work = mkdtempSync(path.join(os.tmpdir(), 'teamrun-package-'));
const project = path.join(work, 'consumer');
let packed: { filename: string; size: number; entryCount: number; files: Array<{ path: string }> };

function sh(file: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeout?: number } = {}) {
  return run(file, args, {
    cwd: options.cwd ?? project,
    env: { ...process.env, TEMPORAL_ADDRESS: temporalAddress(), ...options.env },
    timeout: options.timeout ?? 120_000,
    maxBuffer: 64 * 1024 * 1024,
  });
}
const npx = (args: string[], env: NodeJS.ProcessEnv = {}, timeout?: number) =>
  sh('npx', ['--no-install', 'teamrun', ...args], { env, timeout });

beforeAll(async () => {
  // `npm pack` runs `prepare`, the build: the tarball holds what the sources compile to now.
  const { stdout } = await sh('npm', ['pack', '--json', '--pack-destination', work], { cwd: root, timeout: 300_000 });
  packed = JSON.parse(stdout)[0];
  mkdirSync(project);
  // What the README starts from: `npm init -y`, a CommonJS package.
  await sh('npm', ['init', '-y']);
  // As a user installs it, install scripts included: nothing is compiled, because better-sqlite3
  // (which builds SQLite where no prebuilt binary can be fetched) is an optional peer dependency.
  // And as on a machine without a C toolchain: the compilers node-gyp would call fail at once.
  const noToolchain = path.join(work, 'no-toolchain');
  mkdirSync(noToolchain);
  for (const tool of ['cc', 'gcc', 'c++', 'g++', 'clang', 'make']) {
    writeFileSync(path.join(noToolchain, tool), '#!/bin/sh\necho "no C toolchain here" >&2\nexit 1\n', {
      mode: 0o755,
    });
  }
  await sh(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', path.join(work, packed.filename), 'zod@^4'],
    { timeout: 900_000, env: { PATH: `${noToolchain}${path.delimiter}${process.env.PATH}`, CC: 'cc', CXX: 'c++' } },
  );
}, 1_200_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A consumer's worker process, once it printed `ready`; it fails at once if the worker exits first. */
async function startWorker(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, ready: string) {
  const worker: ChildProcess = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  worker.stdout!.setEncoding('utf8').on('data', (d: string) => (output += d));
  worker.stderr!.setEncoding('utf8').on('data', (d: string) => (output += d));
  try {
    await waitFor(
      `${args.join(' ')} to start`,
      () => {
        if (worker.exitCode !== null) throw new Error(`worker exited: ${output}`);
        return output.includes(ready);
      },
      120_000,
      200,
    );
  } catch (err) {
    worker.kill('SIGINT');
    throw err;
  }
  return { worker, output: () => output };
}

describe('npm pack', () => {
  it('holds the compiled code, its declarations, the workflow bundle, the plan schema, docs and license; nothing of tests, benchmarks, fixtures or sources', () => {
    const files = packed.files.map((f) => f.path);
    expect(files).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'LICENSE',
        'docs/contract.md',
        'examples/demo.yaml',
        'dist/main.js',
        'dist/index.js',
        'dist/index.d.ts',
        'dist/worker/index.js',
        'dist/worker/index.d.ts',
        'dist/client/index.js',
        'dist/fenced/index.js',
        'dist/workflow-bundle.js',
        'dist/plan.schema.json',
      ]),
    );
    const stray = files.filter(
      (f) =>
        /(^|\/)(test|tests|bench|fixtures|scripts|scratch|src)\/|\.test\.|\.spec\.|\.map$|\.ts$/.test(f) &&
        !f.endsWith('.d.ts'),
    );
    expect(stray).toEqual([]);
    expect(files.filter((f) => f.startsWith('examples/custom-executor/'))).toEqual([]);
  });
});

describe('the package installed from its tarball in a fresh project', () => {
  it('runs without tsx: `teamrun --version` and `teamrun validate`, and `teamrun schema` prints the shipped schema', async () => {
    expect(existsSync(path.join(project, 'node_modules', 'tsx'))).toBe(false);
    expect(existsSync(path.join(project, 'node_modules', 'teamrun', 'src'))).toBe(false);
    expect((await npx(['--version'])).stdout.trim()).toBe(pkg.version);

    writeFileSync(
      path.join(project, 'hello.team.yaml'),
      [
        '# yaml-language-server: $schema=./node_modules/teamrun/dist/plan.schema.json',
        'name: hello',
        'tasks:',
        '  - { key: greet-ada, executor: { kind: greet, name: Ada } }',
        '  - { key: greet-fr, executor: { kind: greet, name: Alan, language: fr } }',
        '  - { key: done, dependsOn: [greet-ada, greet-fr], executor: { kind: noop } }',
      ].join('\n'),
    );
    // `greet` is the project's own kind: validate knows it from --kind (or worker.customKinds).
    expect((await npx(['validate', 'hello.team.yaml', '--kind', 'greet'])).stdout).toContain(
      'hello.team.yaml: ok (3 tasks, 2 teammates)',
    );

    const schema = JSON.parse((await npx(['schema'])).stdout);
    expect(schema).toEqual(
      JSON.parse(readFileSync(require.resolve('teamrun/plan.schema.json', { paths: [project] }), 'utf8')),
    );
  });

  it('types a custom executor by its schema: the declarations resolve through exports, a misspelt spec field does not compile', async () => {
    const tsc = path.join(root, 'node_modules', '.bin', 'tsc');
    writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'node16',
          moduleResolution: 'node16',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
          typeRoots: [path.join(root, 'node_modules', '@types')],
        },
        include: ['typed.ts'],
      }),
    );
    const source = (field: string) =>
      [
        "import { z } from 'zod';",
        "import { createWorker, defineExecutor, type ExecutorContext } from 'teamrun/worker';",
        "import { startTeamRun, type TeamRunHandle } from 'teamrun/client';",
        "import { validatePlan, type TeamPlanInput } from 'teamrun';",
        "import { FencedStore } from 'teamrun/fenced';",
        'const greet = defineExecutor(z.object({ name: z.string() }), async (spec, ctx: ExecutorContext) => ({',
        `  output: { greeting: spec.${field}.toUpperCase(), token: ctx.fencingToken },`,
        '}));',
        'export async function main(handle: TeamRunHandle, plan: TeamPlanInput): Promise<string> {',
        '  void createWorker; void startTeamRun; void FencedStore; void validatePlan(plan);',
        '  void greet;',
        "  const verdict = await handle.adjudicate({ key: 'a', decision: 'retry', decisionId: 'd1' });",
        '  const status = await handle.status();',
        '  return `${verdict.ok} ${status.state} ${(await handle.result()).status}`;',
        '}',
      ].join('\n');
    writeFileSync(path.join(project, 'typed.ts'), source('name'));
    await sh(tsc, ['-p', 'tsconfig.json']);
    writeFileSync(path.join(project, 'typed.ts'), source('nmae'));
    const failed = await sh(tsc, ['-p', 'tsconfig.json']).then(
      () => null,
      (err: { stdout: string }) => err.stdout,
    );
    expect(failed).toMatch(/Property 'nmae' does not exist/);
  });

  it('runs a plan to `succeeded` on a worker built with createWorker and a custom executor from defineExecutor', async () => {
    const taskQueue = uniqueQueue('package');
    writeFileSync(
      path.join(project, 'worker.js'),
      [
        "const { z } = require('zod');",
        "const { createWorker, defineExecutor, prebuiltWorkflowBundle } = require('teamrun/worker');",
        'const greet = defineExecutor(',
        "  z.object({ name: z.string(), language: z.enum(['en', 'fr']).default('en') }).strict(),",
        "  async (spec, ctx) => ({ output: { greeting: `${spec.language === 'fr' ? 'bonjour' : 'hello'} ${spec.name}`, token: ctx.fencingToken } }),",
        ');',
        'createWorker({ executors: { greet } }).then((worker) => {',
        '  console.log(`worker ready on ${worker.options.taskQueue}, workflows from ${prebuiltWorkflowBundle()}`);',
        '  return worker.run();',
        '}).catch((err) => { console.error(err); process.exit(1); });',
      ].join('\n'),
    );
    writeFileSync(
      path.join(project, 'start.js'),
      [
        "const { connectClient, loadConfig, loadPlanFile, startTeamRun } = require('teamrun');",
        'async function main() {',
        "  const checked = loadPlanFile('hello.team.yaml');",
        '  if (!checked.ok) throw new Error(JSON.stringify(checked.problems));',
        '  const config = loadConfig();',
        '  const client = await connectClient(config);',
        '  const run = await startTeamRun(client, checked.plan, { taskQueue: config.connection.taskQueue });',
        '  const result = await run.result();',
        '  console.log(JSON.stringify({ workflowId: run.workflowId, status: result.status, outputs: Object.fromEntries(result.tasks.map((t) => [t.key, t.output ?? null])), state: (await run.status()).state }));',
        '  await client.connection.close();',
        '}',
        'main().catch((err) => { console.error(err); process.exit(1); });',
      ].join('\n'),
    );
    const env = { ...process.env, TEMPORAL_ADDRESS: temporalAddress(), TEAMRUN_TASK_QUEUE: taskQueue };
    const { worker, output } = await startWorker(process.execPath, ['worker.js'], project, env, 'worker ready');
    try {
      expect(output()).toContain(
        `workflows from ${path.join(project, 'node_modules', 'teamrun', 'dist', 'workflow-bundle.js')}`,
      );
      const { stdout } = await sh(process.execPath, ['start.js'], { env: { TEAMRUN_TASK_QUEUE: taskQueue } });
      const result = JSON.parse(stdout);
      expect(result).toMatchObject({
        status: 'succeeded',
        state: 'succeeded',
        outputs: {
          'greet-ada': { greeting: 'hello Ada', token: 1 },
          'greet-fr': { greeting: 'bonjour Alan', token: 1 },
          done: null,
        },
      });
      // The CLI of the installed package reads the same run, and takes the summary words as states.
      expect((await npx(['status', result.workflowId])).stdout).toMatch(/state\s+succeeded/);
      expect((await npx(['tasks', result.workflowId, '--status', 'pending'])).stdout).toContain('no tasks match');
    } finally {
      worker.kill('SIGINT');
    }
  });

  it('installs without better-sqlite3, and teamrun/fenced then names the package to install, in code and in the CLI', async () => {
    expect(existsSync(path.join(project, 'node_modules', 'better-sqlite3'))).toBe(false);
    const { stdout } = await sh(process.execPath, [
      '-e',
      [
        "const fenced = require('teamrun/fenced');",
        "try { new fenced.FencedStore('fenced.db'); } catch (err) {",
        '  console.log(JSON.stringify({ code: err.code, ours: err instanceof fenced.FencedStoreDriverMissing, message: err.message }));',
        '}',
      ].join('\n'),
    ]);
    const message = 'teamrun/fenced needs the better-sqlite3 package: npm install better-sqlite3';
    expect(JSON.parse(stdout)).toEqual({ code: 'FENCED_SQLITE_MISSING', ours: true, message });

    const write = 'fence write --db fenced.db --resource r --token 1 --value v'.split(' ');
    const fence = await npx(write).then(
      () => null,
      (err: { code: number; stderr: string }) => err,
    );
    expect(fence).toMatchObject({ code: 1, stderr: `teamrun: ${message}\n` });
  });

  it('`teamrun dev` suggests the demo plan where the package put it', async () => {
    const dev = path.join(project, 'node_modules', 'teamrun', 'dist', 'cli', 'commands', 'dev.js');
    const { stdout } = await sh(process.execPath, [
      '-e',
      `console.log(require(${JSON.stringify(dev)}).demoPlanPath(process.cwd()))`,
    ]);
    expect(stdout.trim()).toBe(path.join('node_modules', 'teamrun', 'examples', 'demo.yaml'));
    expect(existsSync(path.join(project, stdout.trim()))).toBe(true);
  });

  it('`teamrun demo` works from the installed package', async () => {
    const { stdout } = await npx(['demo'], { TEAMRUN_TASK_QUEUE: uniqueQueue('package-demo') }, 300_000);
    expect(stdout).toMatch(/demo finished in .*: succeeded/);
  });
});

/**
 * What the installed package starts as a user runs it: `teamrun worker` from node_modules, with tracing on
 * (its OpenTelemetry workflow bundle, spans to a local collector), running a shell task that asks for budget
 * with the in-task `teamrun reserve` the worker puts on the task's PATH (its gateway's launcher).
 */
describe('the installed worker: the in-task CLI and tracing', () => {
  it('a shell task reserves (granted: exit 0, refused: exit 3, the attempt then stopped), and spans reach a collector', async () => {
    // What the worker exports to /v1/traces (OTLP/HTTP, protobuf: span names are plain bytes in it).
    let traces = '';
    const collector = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (req.url === '/v1/traces') traces += Buffer.concat(chunks).toString('latin1');
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
    const queue = uniqueQueue('package-reserve');
    const env = {
      ...process.env,
      TEMPORAL_ADDRESS: temporalAddress(),
      TEAMRUN_TASK_QUEUE: queue,
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    };
    // The installed `teamrun` command itself (what `npx teamrun worker` runs), so that SIGINT reaches the worker.
    const teamrun = path.join(project, 'node_modules', '.bin', 'teamrun');
    const { worker, output } = await startWorker(
      process.execPath,
      [teamrun, 'worker'],
      project,
      env,
      'teamrun worker ready',
    );
    try {
      const codes = path.join(work, 'reserve-codes');
      const command =
        `teamrun reserve --tokens 40; echo "first $?" >> ${codes}; ` +
        `echo '::teamrun-usage::{"outputTokens":40}'; teamrun reserve --tokens 500; echo "second $?" >> ${codes}; ` +
        'sleep 30';
      const plan = {
        name: 'package-reserve',
        teammates: 1,
        awaitAdjudication: false,
        budget: { maxTokens: 100 },
        tasks: [{ key: 'spend', executor: { kind: 'shell', command } }],
      };
      writeFileSync(path.join(project, 'reserve.json'), JSON.stringify(plan));
      // Not `succeeded` (the task is adjudicated), so `--wait` exits 1 with the result on stdout.
      const ended = await npx(['start', 'reserve.json', '--wait', '--json'], { TEAMRUN_TASK_QUEUE: queue }).catch(
        (err: { stdout?: string }) => err,
      );
      // `--wait --json` prints the line naming the run it started, then the result.
      const stdout = ended.stdout ?? '';
      const result = JSON.parse(stdout.slice(stdout.indexOf('{'))) as {
        tasks: Array<{ status: string; usage: { outputTokens: number } }>;
        budget: { used: { tokens: number } };
      };
      expect(readFileSync(codes, 'utf8')).toBe('first 0\nsecond 3\n');
      expect(result.tasks[0]).toMatchObject({ status: 'adjudication', usage: { outputTokens: 40 } });
      expect(result.budget.used.tokens).toBe(40);
      // The run's own span comes from the workflow bundle with Temporal's OpenTelemetry interceptors in it, the
      // attempt's from the worker: both are shipped in the package.
      await waitFor(
        "the worker to export the run's and the attempt's spans",
        () => traces.includes('RunWorkflow:teamRun') && traces.includes('attempt spend#1'),
        30_000,
        200,
      );
    } catch (err) {
      throw new Error(`${(err as Error).message}\nworker output:\n${output().slice(-4_000)}`);
    } finally {
      worker.kill('SIGINT');
      collector.close();
    }
  }, 240_000);
});

describe('the installed MCP server, driven by the official MCP SDK client', () => {
  it('`teamrun mcp` over stdio lists its tools, starts a run and follows it to `succeeded`', async () => {
    const queue = uniqueQueue('package-mcp');
    const teamrun = path.join(project, 'node_modules', '.bin', 'teamrun');
    // An MCP client passes the server only the environment it is configured with: say where Temporal is.
    const env = { PATH: process.env.PATH!, TEMPORAL_ADDRESS: temporalAddress(), TEAMRUN_TASK_QUEUE: queue };
    const { worker, output } = await startWorker(process.execPath, [teamrun, 'worker'], project, env, 'worker ready');
    // The SDK as the consumer project resolves it (the one the package installed beside itself).
    const consumerRequire = createRequire(path.join(project, 'package.json'));
    const { Client } = consumerRequire(
      '@modelcontextprotocol/sdk/client/index.js',
    ) as typeof import('@modelcontextprotocol/sdk/client/index.js');
    const { StdioClientTransport } = consumerRequire(
      '@modelcontextprotocol/sdk/client/stdio.js',
    ) as typeof import('@modelcontextprotocol/sdk/client/stdio.js');
    const client = new Client({ name: 'package-test', version: '1' });
    try {
      await client.connect(
        new StdioClientTransport({ command: process.execPath, args: [teamrun, 'mcp', '--actor', 'alice'], env }),
      );
      const tools = (await client.listTools()).tools.map((t) => t.name);
      expect(tools).toEqual(expect.arrayContaining(['start_run', 'run_status', 'interrupt_task', 'adjudicate']));
      const plan = {
        name: 'package-mcp',
        governance: { operators: ['alice'] },
        tasks: [
          { key: 'hello', executor: { kind: 'shell', command: 'echo hello' } },
          { key: 'after', dependsOn: ['hello'], executor: { kind: 'noop' } },
        ],
      };
      const started = await client.callTool({ name: 'start_run', arguments: { plan } });
      // A refusal's reason is its text content: shown if it is one.
      expect(started.isError ?? false, JSON.stringify(started.content)).toBe(false);
      const { runId } = started.structuredContent as { runId: string };
      let status: { state: string; cursor: string; stats: { succeeded: number } } | undefined;
      for (let look = 0; look < 10 && status?.state !== 'succeeded'; look++) {
        const args = { runId, ...(status && { cursor: status.cursor, waitMs: 10_000 }) };
        status = (await client.callTool({ name: 'run_status', arguments: args })).structuredContent as typeof status;
      }
      expect(status).toMatchObject({ state: 'succeeded', stats: { succeeded: 2 } });
    } catch (err) {
      throw new Error(`${(err as Error).message}\nworker output:\n${output().slice(-4_000)}`);
    } finally {
      await client.close();
      worker.kill('SIGINT');
    }
  }, 240_000);
});

/**
 * The README's "Use it in your project", literally: its code blocks (each headed by a comment
 * naming its file) written as they stand in a fresh `npm init -y` project, type-checked with its
 * tsconfig, the worker started with tsx and the client run against the suite's server. The dev
 * tools the README installs (typescript, tsx, @types/node) are the repository's own.
 */
describe("the README's first hour, in a fresh CommonJS project", () => {
  it('its tsconfig, worker.ts and start.ts compile, and the run they start succeeds', async () => {
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    const section = readme.split('\n## Use it in your project\n')[1].split('\n## ')[0];
    const files = [...section.matchAll(/```(?:ts|jsonc)\n\/\/ (\S+)\n([\s\S]*?)```/g)].map(([, file, body]) => ({
      file,
      body,
    }));
    expect(files.map((f) => f.file)).toEqual(['tsconfig.json', 'worker.ts', 'start.ts']);
    expect(section).toContain('npm init -y');

    const dir = path.join(project, 'first-hour');
    mkdirSync(dir);
    await sh('npm', ['init', '-y'], { cwd: dir });
    expect(JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).type ?? 'commonjs').toBe('commonjs');
    for (const { file, body } of files) writeFileSync(path.join(dir, file), body);
    const types = path.join(project, 'node_modules', '@types', 'node');
    mkdirSync(path.dirname(types), { recursive: true });
    if (!existsSync(types)) symlinkSync(path.join(root, 'node_modules', '@types', 'node'), types);

    const tsc = await sh(path.join(root, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json'], { cwd: dir }).then(
      (r) => r.stdout,
      (err: { stdout: string }) => `tsc failed:\n${err.stdout}`,
    );
    expect(tsc).toBe('');

    const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
    const env = { ...process.env, TEMPORAL_ADDRESS: temporalAddress() };
    const { worker } = await startWorker(tsx, ['worker.ts'], dir, env, 'worker ready on task queue greeters');
    try {
      const { stdout } = await sh(tsx, ['start.ts'], { cwd: dir });
      expect(stdout).toMatch(/^hello-\S+: running\n/);
      expect(stdout).toContain('succeeded [["ada",{"greeting":"hello Ada","fencingToken":1}],["done",null]]');
    } finally {
      worker.kill('SIGINT');
    }
  });
});

/**
 * A first agent run without a key, as `teamrun init agents` says: its config and plan written in a fresh
 * `npm init -y` project, `teamrun dev --model mock` (a Temporal dev server, a worker and the scripted mock
 * model, all from the installed package), `teamrun start` of the plan to `succeeded`.
 */
describe('a first agent run from the installed package, without a key', () => {
  it('`teamrun init agents`, `teamrun dev --model mock`, `teamrun start agents.team.yaml --wait` succeeds', async () => {
    const dir = path.join(project, 'agents');
    mkdirSync(dir);
    await sh('npm', ['init', '-y'], { cwd: dir });
    // The project's install, as `npm install teamrun` there would make it; and the MCP filesystem server the
    // config names, installed once as `teamrun init agents` suggests (npx would fetch it on first use otherwise).
    await sh(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefer-offline', '@modelcontextprotocol/server-filesystem'],
      {
        timeout: 300_000,
      },
    );
    symlinkSync(path.join(project, 'node_modules'), path.join(dir, 'node_modules'));
    const env = {
      TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}`,
      TEMPORAL_CLI_PATH: temporalBinary(),
      OPENAI_API_KEY: '',
    };
    const inDir = (args: string[], timeout?: number) =>
      sh('npx', ['--no-install', 'teamrun', ...args], { cwd: dir, env, timeout });

    const init = await inDir(['init', 'agents']);
    expect(init.stdout).toContain('wrote teamrun.yaml');
    expect(init.stdout).toContain('npx teamrun dev --model mock');
    expect(existsSync(path.join(dir, 'agents.team.yaml'))).toBe(true);
    expect((await inDir(['validate', 'agents.team.yaml'])).stdout).toContain('agents.team.yaml: ok (2 tasks');

    const teamrun = path.join(project, 'node_modules', '.bin', 'teamrun');
    const { worker: dev, output } = await startWorker(
      process.execPath,
      [teamrun, 'dev', '--model', 'mock', '--headless'],
      dir,
      { ...process.env, ...env },
      'Press Ctrl-C to stop.',
    );
    try {
      expect(output()).toContain("Model:               MOCK (teamrun's scripted mock model");
      expect(output()).toContain('Start a run:         teamrun start agents.team.yaml --wait');
      const { stdout } = await inDir(['start', 'agents.team.yaml', '--wait'], 300_000);
      const id = /started (\S+) on task queue/.exec(stdout)![1];
      expect(stdout).toContain(`run ${id}: succeeded`);
      expect(stdout).toMatch(/\n\s+writer-1\s+succeeded\s+1\s+1\s+teammate-\d\s+output .*\[mock model\]/);
      // The writers wrote through the MCP filesystem server, in the one directory it allows.
      expect(readFileSync(path.join(dir, 'work', 'writer-1.md'), 'utf8')).toMatch(/^\[mock model\] /);
      expect(readFileSync(path.join(dir, 'work', 'writer-2.md'), 'utf8')).toMatch(/^\[mock model\] /);
    } catch (err) {
      throw new Error(`${(err as Error).message}\ndev output:\n${output().slice(-4_000)}`);
    } finally {
      dev.kill('SIGINT');
      await new Promise((resolve) => (dev.exitCode !== null ? resolve(null) : dev.once('exit', resolve)));
    }
  }, 600_000);
});
