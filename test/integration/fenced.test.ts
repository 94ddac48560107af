import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  FencedStore,
  FencedWriteRejected,
  InvalidFencingToken,
  fencingTokenFromEnv,
  parseFencingToken,
} from '../../src/fenced';
import { waitFor } from '../helpers/env';

interface Racer {
  name: string;
  accepted: number[];
  rejected: Array<{ token: number; highestSeen: number }>;
  wentBack: number;
  sawOther: number;
}

const run = promisify(execFile);
const root = path.resolve(__dirname, '..', '..');

describe('a fenced resource in a SQLite file', () => {
  let dir: string;
  let db: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-fenced-'));
    db = path.join(dir, 'fence.db');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('accepts a first write, a newer token and the same token again, and refuses an older one', () => {
    const store = new FencedStore(db);
    expect(store.write({ resource: 'report', token: 1, value: 'first', writer: 'run/report/1' })).toEqual({
      resource: 'report',
      token: 1,
      previousToken: null,
    });
    expect(store.write({ resource: 'report', token: 3, value: 'third' }).previousToken).toBe(1);
    // The same attempt may write again (e.g. it retries its own write).
    expect(store.write({ resource: 'report', token: 3, value: 'third, again' }).previousToken).toBe(3);

    let refused: unknown;
    try {
      store.write({ resource: 'report', token: 2, value: 'stale' });
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(FencedWriteRejected);
    expect(refused).toMatchObject({ code: 'FENCED_WRITE_REJECTED', resource: 'report', token: 2, highestSeen: 3 });
    expect((refused as Error).message).toContain('fencing token 2 is older than the highest seen, 3');
    expect(store.read('report')).toMatchObject({ token: 3, value: 'third, again', writer: null });
    store.close();
  });

  it('fences each resource on its own and keeps everything across reopening the file', () => {
    const store = new FencedStore(db);
    store.write({ resource: 'a', token: 5, value: 'a5' });
    store.write({ resource: 'b', token: 1, value: 'b1' });
    store.close();
    const again = new FencedStore(db);
    expect(() => again.write({ resource: 'a', token: 4, value: 'a4' })).toThrow(FencedWriteRejected);
    expect(again.read('a')).toMatchObject({ token: 5, value: 'a5' });
    expect(again.read('b')).toMatchObject({ token: 1, value: 'b1' });
    expect(again.read('never-written')).toBeNull();
    again.close();
  });

  it('refuses tokens that are not positive integers, naming where they came from', () => {
    const store = new FencedStore(db);
    for (const token of [0, -1, 1.5, Number.NaN]) {
      expect(() => store.write({ resource: 'r', token, value: 'x' })).toThrow(InvalidFencingToken);
    }
    expect(parseFencingToken(' 42 ')).toBe(42);
    expect(() => parseFencingToken('4x', '--token')).toThrow(
      '--token: fencing token must be a positive integer, got "4x"',
    );
    expect(fencingTokenFromEnv({ TEAMRUN_FENCING_TOKEN: '7' })).toBe(7);
    expect(() => fencingTokenFromEnv({})).toThrow(/TEAMRUN_FENCING_TOKEN/);
    expect(store.read('r')).toBeNull();
    store.close();
  });

  it('never moves back to an older token when two processes race on the same resource', async () => {
    new FencedStore(db).close();
    const count = 200;
    const go = path.join(dir, 'go');
    const racer = (name: string) => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', 'test/helpers/fence-racer.ts', db, 'shared', name, String(count), go],
        {
          cwd: root,
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
      const done = new Promise<Racer>((resolve, reject) =>
        child.on('exit', (code) =>
          code === 0
            ? resolve(JSON.parse(out.split('\n')[1]) as Racer)
            : reject(new Error(`racer ${name} exited ${code}: ${out}`)),
        ),
      );
      return { ready: () => out.startsWith('ready'), done };
    };
    const racers = [racer('a'), racer('b')];
    await waitFor('both racers to be ready', () => racers.every((r) => r.ready()));
    writeFileSync(`${go}.tmp`, String(Date.now()));
    renameSync(`${go}.tmp`, go);
    const [a, b] = await Promise.all(racers.map((r) => r.done));

    for (const side of [a, b]) {
      expect(side.accepted.length + side.rejected.length).toBe(count);
      expect(side.wentBack).toBe(0);
      for (const r of side.rejected) expect(r.highestSeen).toBeGreaterThan(r.token);
    }
    // They really raced: each read the other's writes and lost some writes to it.
    for (const side of [a, b]) {
      expect(side.sawOther).toBeGreaterThan(0);
      expect(side.rejected.length).toBeGreaterThan(0);
    }
    const highest = Math.max(...a.accepted, ...b.accepted);
    const winners = [a, b].filter((side) => side.accepted.includes(highest)).map((side) => `${side.name}:${highest}`);
    const store = new FencedStore(db);
    expect(store.read('shared')).toMatchObject({ token: highest });
    expect(winners).toContain(store.read('shared')!.value);
    store.close();
  });

  it('gives shell steps a CLI that exits 3 on a stale token and reads the token from the attempt environment', async () => {
    const cli = (args: string[], env: NodeJS.ProcessEnv = {}) =>
      run(process.execPath, ['bin/teamrun.js', 'fence', ...args], { cwd: root, env: { ...process.env, ...env } }).then(
        ({ stdout }) => ({ code: 0, stdout, stderr: '' }),
        (err: { code: number; stdout: string; stderr: string }) => ({
          code: err.code,
          stdout: err.stdout,
          stderr: err.stderr,
        }),
      );
    const attempt2 = { TEAMRUN_FENCING_TOKEN: '2', TEAMRUN_LEASE_ID: 'wf/publish/2' };
    const written = await cli(['write', '--db', db, '--resource', 'publish', '--value', 'from attempt 2'], attempt2);
    expect(written.code).toBe(0);
    expect(JSON.parse(written.stdout)).toEqual({ ok: true, resource: 'publish', token: 2, previousToken: null });

    const stale = await cli([
      'write',
      '--db',
      db,
      '--resource',
      'publish',
      '--token',
      '1',
      '--value',
      'from attempt 1',
    ]);
    expect(stale.code).toBe(3);
    expect(stale.stderr).toContain('FENCED_WRITE_REJECTED');
    expect(stale.stderr).toContain('fencing token 1 is older than the highest seen, 2');

    const [unset, read] = await Promise.all([
      cli(['write', '--db', db, '--resource', 'publish', '--value', 'v'], { TEAMRUN_FENCING_TOKEN: '' }),
      cli(['read', '--db', db, '--resource', 'publish']),
    ]);
    expect(unset.code).toBe(1);
    expect(unset.stderr).toContain('FENCED_INVALID_TOKEN');
    expect(JSON.parse(read.stdout)).toMatchObject({
      resource: 'publish',
      token: 2,
      value: 'from attempt 2',
      writer: 'wf/publish/2',
    });
  });
});
