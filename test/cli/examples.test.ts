import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { teamRunHandle } from '../../src/client';
import { loadPlanFile } from '../../src/plan/load';
import { temporalAddress, temporalBinary, testClient, uniqueQueue } from '../helpers/env';
import { workerForSuite } from '../helpers/scenario';

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
});
