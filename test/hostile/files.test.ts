import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { freePort, startDevServer } from '../../src/devserver/server';
import { temporalBinary } from '../helpers/env';

const mode = (file: string) => (statSync(file).mode & 0o777).toString(8);

describe("what teamrun keeps on disk is its owner's only", () => {
  it('.teamrun/ is created 0700, the dev server database and its log 0600', async () => {
    const project = mkdtempSync(path.join(os.tmpdir(), 'teamrun-files-'));
    const dbFile = path.join(project, '.teamrun', 'dev.db');
    const server = await startDevServer({ binary: temporalBinary(), port: await freePort(), dbFile, headless: true });
    onTestFinished(() => server.stop());
    expect(mode(path.join(project, '.teamrun'))).toBe('700');
    const files = readdirSync(path.join(project, '.teamrun'));
    expect(files).toEqual(expect.arrayContaining(['dev.db', 'dev.db.log']));
    for (const file of files) expect([file, mode(path.join(project, '.teamrun', file))]).toEqual([file, '600']);
  });
});
