import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { LogLevel, LogMetadata, Logger } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { LevelGate } from '../../src/worker/log-format';

/** A logger that keeps what reaches it, and whether it was flushed and closed. */
function keeping() {
  const seen: Array<[LogLevel, string, LogMetadata | undefined]> = [];
  const calls: string[] = [];
  const log = (level: LogLevel, message: string, meta?: LogMetadata) => void seen.push([level, message, meta]);
  const logger: Logger & { flush(): void; close(): void } = {
    log,
    trace: (m, meta) => log('TRACE', m, meta),
    debug: (m, meta) => log('DEBUG', m, meta),
    info: (m, meta) => log('INFO', m, meta),
    warn: (m, meta) => log('WARN', m, meta),
    error: (m, meta) => log('ERROR', m, meta),
    flush: () => void calls.push('flush'),
    close: () => void calls.push('close'),
  };
  return { logger, seen, calls };
}

describe('LevelGate (the runtime logger of `teamrun worker`)', () => {
  it('passes on entries at its level and above, as they came, and drops the ones below before the logger behind', () => {
    const { logger, seen } = keeping();
    const gate = new LevelGate('INFO', logger);
    gate.trace('t');
    gate.debug('Activity started', { activityId: 'a#1' });
    gate.log('DEBUG', 'd');
    gate.info('i', { taskQueue: 'q' });
    gate.warn('w');
    gate.log('ERROR', 'e', { error: 'x' });
    expect(seen).toEqual([
      ['INFO', 'i', { taskQueue: 'q' }],
      ['WARN', 'w', undefined],
      ['ERROR', 'e', { error: 'x' }],
    ]);
  });

  it('at DEBUG passes DEBUG on, and the runtime can still flush and close the logger behind it', () => {
    const { logger, seen, calls } = keeping();
    const gate = new LevelGate('DEBUG', logger);
    gate.debug('d');
    gate.trace('t');
    gate.flush();
    gate.close();
    expect(seen.map(([level]) => level)).toEqual(['DEBUG']);
    expect(calls).toEqual(['flush', 'close']);
  });

  it("is what `teamrun worker` installs: the runtime logger, in front of the SDK's, at the worker's level", () => {
    // A process of its own: the Temporal runtime is installed once per process.
    const script = `
      const { Runtime } = require('@temporalio/worker');
      const { LevelGate, installTerminalLogger } = require('./src/worker/log-format.ts');
      installTerminalLogger('INFO');
      const logger = Runtime.instance().logger;
      logger.debug('a debug line');
      logger.info('an info line');
      logger.flush();
      console.log(JSON.stringify({ gate: logger instanceof LevelGate }));
      setTimeout(() => process.exit(0), 200);
    `;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], {
      cwd: path.resolve(__dirname, '../..'),
      encoding: 'utf8',
      timeout: 30_000,
    });
    const printed = `${child.stdout}${child.stderr}`;
    expect(child.status, printed).toBe(0);
    expect(printed).toContain('{"gate":true}');
    expect(printed).toContain('an info line');
    expect(printed).not.toContain('a debug line');
  });
});
