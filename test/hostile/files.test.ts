import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { freePort, startDevServer } from '../../src/devserver/server';
import { temporalBinary } from '../helpers/env';

/** A file's permission bits; null when it is gone (SQLite's journal comes and goes with each transaction). */
const mode = (file: string) => {
  const stat = statSync(file, { throwIfNoEntry: false });
  return stat ? (stat.mode & 0o777).toString(8) : null;
};

describe("what teamrun keeps on disk is its owner's only", () => {
  it('.teamrun/ is created 0700, the dev server database and its log 0600', async () => {
    const project = mkdtempSync(path.join(os.tmpdir(), 'teamrun-files-'));
    const dbFile = path.join(project, '.teamrun', 'dev.db');
    const server = await startDevServer({ binary: temporalBinary(), port: await freePort(), dbFile, headless: true });
    onTestFinished(() => server.stop());
    expect(mode(path.join(project, '.teamrun'))).toBe('700');
    const files = readdirSync(path.join(project, '.teamrun'));
    expect(files).toEqual(expect.arrayContaining(['dev.db', 'dev.db.log']));
    expect(mode(dbFile)).toBe('600');
    expect(mode(`${dbFile}.log`)).toBe('600');
    // Whatever else is there (a journal, if it is still there when looked at) is the owner's only too.
    for (const file of files) {
      const bits = mode(path.join(project, '.teamrun', file));
      if (bits !== null) expect([file, bits]).toEqual([file, '600']);
    }
  });
});
