import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/devserver/server';
import { TeamName, TeamRunStatus } from '../../src/workflows/search-attributes';
import { waitFor } from '../helpers/env';
import { spawnTeamrun, teamrun, waitForOutput } from './teamrun-cli';

const dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-local-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('teamrun dev and teamrun demo on an embedded server', () => {
  it('dev starts a server and a worker, demo runs on it, and Ctrl-C stops the worker, then the server', async () => {
    const [port, uiPort] = [await freePort(), await freePort()];
    const config = path.join(dir, 'temporal.yaml');
    writeFileSync(config, `devServer:\n  dbFile: ${path.join(dir, 'dev.db')}\nworker:\n  shutdownGraceMs: 500\n`);
    const env = { TEMPORAL_ADDRESS: `127.0.0.1:${port}`, TEAMRUN_CONFIG: config };

    const dev = spawnTeamrun(['dev', '--ui-port', String(uiPort)], env);
    try {
      await waitForOutput(dev, 'Press Ctrl-C to stop.');
      expect(dev.stdout()).toContain(
        `Temporal dev server: 127.0.0.1:${port} (namespace default, SQLite ${path.join(dir, 'dev.db')})`,
      );
      expect(dev.stdout()).toContain(`Web UI:              http://localhost:${uiPort}/namespaces/default/workflows`);
      expect((await fetch(`http://127.0.0.1:${uiPort}/`)).ok).toBe(true);

      const second = await teamrun(['dev', '--ui-port', String(uiPort)], env);
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(`a Temporal server already answers at 127.0.0.1:${port}`);

      const demo = await teamrun(['demo', '--ui-port', String(uiPort)], env);
      expect(demo.code, demo.stdout + demo.stderr).toBe(0);
      expect(demo.stderr).toContain(`using the Temporal server that answers at 127.0.0.1:${port}`);
      const id = /started team run (\S+):/.exec(demo.stdout)![1];
      expect(demo.stdout).toContain(`web ui: http://localhost:${uiPort}/namespaces/default/workflows/${id}`);
      expect(demo.stdout).toContain(`run ${id}: succeeded`);
      // The flaky task ran twice, the second time with a new fencing token; the others once.
      expect(demo.stdout).toMatch(/\n\s+build\s+succeeded\s+2\s+2\s/);
      for (const key of ['fetch', 'lint', 'publish'])
        expect(demo.stdout).toMatch(new RegExp(`\\n\\s+${key}\\s+succeeded\\s+1\\s+1\\s`));
      expect(demo.stdout).toMatch(/demo finished in [\d.]+m?s: succeeded/);

      // What the Web UI lists and filters on: the run's search attributes on the embedded server.
      const connection = await Connection.connect({ address: `127.0.0.1:${port}` });
      try {
        const client = new Client({ connection });
        const listed = await waitFor('the demo run in visibility with its search attributes', async () => {
          for await (const run of client.workflow.list({
            query: `TeamName="demo-docs" AND TeamRunStatus="Succeeded"`,
          })) {
            if (run.workflowId === id) return run;
          }
          return null;
        });
        expect(listed.typedSearchAttributes.get(TeamName)).toBe('demo-docs');
        expect(listed.typedSearchAttributes.get(TeamRunStatus)).toBe('Succeeded');
      } finally {
        await connection.close();
      }
    } finally {
      dev.child.kill('SIGINT');
    }
    const exit = await dev.exited;
    expect(exit.code, exit.stderr).toBe(0);
    const stderr = exit.stderr;
    expect(stderr.indexOf('stopping the worker')).toBeGreaterThan(-1);
    expect(stderr.indexOf('stopping the Temporal dev server')).toBeGreaterThan(stderr.indexOf('stopping the worker'));
    expect(stderr).toContain('teamrun dev: stopped');
    expect(await portAccepts(port)).toBe(false);
  });

  it('dev killed with SIGKILL takes its server with it, so the next dev starts on the same port and file', async () => {
    const port = await freePort();
    const config = path.join(dir, 'killed.yaml');
    writeFileSync(config, `devServer:\n  dbFile: ${path.join(dir, 'killed.db')}\nworker:\n  shutdownGraceMs: 500\n`);
    const env = { TEMPORAL_ADDRESS: `127.0.0.1:${port}`, TEAMRUN_CONFIG: config };
    const first = spawnTeamrun(['dev', '--headless'], env);
    try {
      await waitForOutput(first, 'Press Ctrl-C to stop.');
    } finally {
      first.child.kill('SIGKILL');
    }
    await first.exited;
    // Nothing stops the server but the kernel's word that its parent died: the port closes without anyone asking.
    await waitFor('the killed dev server to stop listening', async () => !(await portAccepts(port)), 60_000, 200);
    const second = spawnTeamrun(['dev', '--headless'], env);
    try {
      await waitForOutput(second, 'Press Ctrl-C to stop.');
      expect(second.stdout()).toContain(`Temporal dev server: 127.0.0.1:${port}`);
    } finally {
      second.child.kill('SIGINT');
    }
    const exit = await second.exited;
    expect(exit.code, exit.stderr).toBe(0);
    expect(await portAccepts(port)).toBe(false);
  });

  it('demo names the port and says how to move when the port is held by something that is not Temporal', async () => {
    const squatter = net.createServer((socket) => socket.end('not temporal\n'));
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    const { port } = squatter.address() as net.AddressInfo;
    try {
      const demo = await teamrun(['demo'], { TEMPORAL_ADDRESS: `127.0.0.1:${port}` });
      expect(demo.code).toBe(1);
      expect(demo.stderr).toContain(
        `port ${port} on 127.0.0.1 is in use by a program that does not answer as a Temporal server`,
      );
      expect(demo.stderr).toContain('TEMPORAL_ADDRESS=127.0.0.1:17233');
      expect(demo.stderr).not.toMatch(/\n\s+at /);
    } finally {
      squatter.close();
    }
  });

  it('dev says what the server wrote when it stops at start (its database file is a directory)', async () => {
    const dbFile = path.join(dir, 'a-directory.db');
    mkdirSync(dbFile);
    const config = path.join(dir, 'directory-db.yaml');
    writeFileSync(config, `devServer:\n  dbFile: ${dbFile}\n`);
    const dev = await teamrun(['dev', '--headless'], {
      TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}`,
      TEAMRUN_CONFIG: config,
    });
    expect(dev.code).toBe(1);
    expect(dev.stderr).toContain('temporal server start-dev stopped at start (exit 1)');
    expect(dev.stderr).toContain('unable to open database file');
  });
});

function portAccepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
