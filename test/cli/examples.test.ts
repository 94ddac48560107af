import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { teamRunHandle } from '../../src/client';
import { loadPlanFile } from '../../src/plan/load';
import { temporalAddress, temporalBinary, testClient, uniqueQueue } from '../helpers/env';
import { workerForSuite } from '../helpers/scenario';
import { freePort } from '../../src/devserver/server';
import { spawnTeamrun, teamrun, waitForOutput } from './teamrun-cli';

const examples = path.resolve(__dirname, '..', '..', 'examples');

describe('the example plans', () => {
  // `*.temporal.yaml` files beside a plan are the worker config it needs, not plans.
  const plans = readdirSync(examples).filter((f) => /\.(ya?ml|json)$/.test(f) && !/temporal\.ya?ml$/.test(f));
  it.each(plans)('%s is a valid plan', (file) => {
    const result = loadPlanFile(path.join(examples, file));
    expect(result.ok ? [] : result.problems).toEqual([]);
  });

  describe('started with the plain temporal CLI', () => {
    const worker = workerForSuite();

    it('fanout.json runs to success from `temporal workflow start --input-file`', async () => {
      const id = uniqueQueue('fanout');
      await promisify(execFile)(temporalBinary(), [
        'workflow',
        'start',
        '--type',
        'teamRun',
        '--task-queue',
        worker.taskQueue,
        '--workflow-id',
        id,
        '--input-file',
        path.join(examples, 'fanout.json'),
        '--address',
        temporalAddress(),
      ]);
      const result = await teamRunHandle(await testClient(), id).result();
      expect(result.status).toBe('succeeded');
      expect(result.stats).toMatchObject({ total: 6, succeeded: 6 });
      expect(result.maxConcurrent).toBe(4);
    });
  });

  it('agent-team.yaml runs as its header says, without a key: `teamrun dev --model mock`, then `teamrun start`', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-agent-team-'));
    const config = path.join(dir, 'teamrun.yaml');
    writeFileSync(config, `devServer:\n  dbFile: ${path.join(dir, 'dev.db')}\nworker:\n  shutdownGraceMs: 500\n`);
    const env = { TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}`, TEAMRUN_CONFIG: config, OPENAI_API_KEY: '' };
    const dev = spawnTeamrun(['dev', '--model', 'mock', '--headless'], env);
    try {
      await waitForOutput(dev, 'Press Ctrl-C to stop.', 180_000);
      expect(dev.stdout()).toMatch(/Model: +MOCK \(teamrun's scripted mock model at http:\/\/127\.0\.0\.1:\d+\/v1; /);
      expect(dev.stdout()).toContain('Start a run:         teamrun start examples/agent-team.yaml --wait');

      const start = await teamrun(['start', 'examples/agent-team.yaml', '--wait'], env, 300_000);
      expect(start.code, start.stdout + start.stderr).toBe(0);
      const id = /started (\S+) on task queue/.exec(start.stdout)![1];
      expect(start.stdout).toContain(`run ${id}: succeeded`);
      for (const key of ['plan', 'review', 'worker-1', 'worker-2']) {
        expect(start.stdout).toMatch(
          new RegExp(`\\n\\s+${key}\\s+succeeded\\s+1\\s+1\\s+teammate-\\d\\s+output .*\\[mock model\\]`),
        );
      }

      // Who added what: the planner's two tasks hang off it.
      const graph = await teamrun(['graph', id], env);
      expect(graph.code, graph.stderr).toBe(0);
      expect(graph.stdout).toMatch(/worker-1 .*\(added by plan\)/);
      expect(graph.stdout).toMatch(/worker-2 .*\(added by plan\)/);

      // The same team written with roles (examples/agent-roles.yaml): the planner hands each part to a role through
      // its typed delegate tool, on the same mock.
      const roles = await teamrun(['start', 'examples/agent-roles.yaml', '--wait'], env, 300_000);
      expect(roles.code, roles.stdout + roles.stderr).toBe(0);
      const rolesId = /started (\S+) on task queue/.exec(roles.stdout)![1];
      expect(roles.stdout).toContain(`run ${rolesId}: succeeded`);
      for (const key of ['plan', 'review', 'part-1', 'part-2'])
        expect(roles.stdout).toMatch(new RegExp(`\\n\\s+${key}\\s+succeeded\\s`));
      const rolesGraph = await teamrun(['graph', rolesId], env);
      expect(rolesGraph.stdout).toMatch(/part-1 .*\(added by plan\)/);
      expect(rolesGraph.stdout).toMatch(/part-2 .*\(added by plan\)/);
      // Each part runs as the role it was delegated to: its conversation opens with that role's instructions.
      const writer = await teamrun(['logs', rolesId, 'part-1'], env);
      expect(writer.stdout, writer.stderr).toContain('[system] You write one part of a note.');
      const researcher = await teamrun(['logs', rolesId, 'part-2'], env);
      expect(researcher.stdout, researcher.stderr).toContain('[system] You research a part.');

      // A changed teamrun.yaml: dev says the worker keeps the old one until it is restarted.
      appendFileSync(config, '# edited\n');
      await waitForOutput(dev, 'changed: restart `teamrun dev` to apply it', 30_000);
    } finally {
      dev.child.kill('SIGINT');
      await dev.exited;
      rmSync(dir, { recursive: true, force: true });
    }
  }, 600_000);

  it('`teamrun init agents` writes a plan that validates and refuses to overwrite; `dev --model` takes only mock', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-init-'));
    try {
      const init = await teamrun(['init', 'agents', '--dir', dir]);
      expect(init.code, init.stderr).toBe(0);
      expect(init.stdout).toContain('wrote teamrun.yaml');
      const checked = await teamrun(['validate', path.join(dir, 'agents.team.yaml')], {
        TEAMRUN_CONFIG: path.join(dir, 'teamrun.yaml'),
      });
      expect(checked.stdout, checked.stderr).toContain('agents.team.yaml: ok (2 tasks, 3 teammates)');
      const again = await teamrun(['init', 'agents', '--dir', dir]);
      expect(again).toMatchObject({ code: 1 });
      expect(again.stderr).toContain('teamrun.yaml and agents.team.yaml already exist in');
      expect((await teamrun(['init', 'agnets', '--dir', dir])).stderr).toContain(
        'unknown template "agnets": teamrun init takes agents',
      );
      const dev = await teamrun(['dev', '--model', 'gpt-4o', '--headless']);
      expect(dev.code).toBe(1);
      expect(dev.stderr).toContain('--model "gpt-4o": the only model --model starts is "mock"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
