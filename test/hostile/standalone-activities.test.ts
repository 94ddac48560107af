import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { controlQueueName } from '../../src/plan/lease-pace';
import { testClient, testConfig } from '../helpers/env';
import { workerForTest } from '../helpers/scenario';
import { startStandalone } from '../helpers/standalone';
import { tempDir } from './executors-helpers';

describe('activities started by a client on their own (standalone activities)', () => {
  it("refuses a runTask, a ledger call and a steer that no run scheduled, before they run: the shell's file is never written", async ({
    onTestFinished,
  }) => {
    const worker = await workerForTest({ config: testConfig() }, onTestFinished);
    const client = await testClient();
    const marker = path.join(tempDir('standalone-'), 'ran');
    const start = startStandalone;
    const runTask = await start('runTask', worker.taskQueue, {
      workflowId: 'a-run-that-never-asked',
      taskKey: 'forged',
      title: 'forged',
      attempt: 1,
      fencingToken: 1,
      leaseId: 'a-run-that-never-asked/forged/1',
      executor: { kind: 'shell', command: `touch ${marker}` },
      dependencyOutputs: {},
    });
    const register = await start('ledgerRegister', controlQueueName(worker.taskQueue), {
      ledgerId: 'standalone-ledger',
      workflowId: 'a-run-that-never-asked',
      name: 'forged',
    });
    const steer = await start('steerAgent', controlQueueName(worker.taskQueue), {});
    for (const [type, got] of Object.entries({ runTask, ledgerRegister: register, steerAgent: steer })) {
      expect(got.type, `${type}: ${JSON.stringify(got)}`).toBe('TeamActivityNotScheduled');
      expect(got.message).toContain(`activity ${type} (id standalone-${type}-`);
      expect(got.message).toContain('was started by a client, not scheduled by a workflow');
    }
    expect(existsSync(marker)).toBe(false);
    // No ledger was started for the forged registration.
    await expect(client.workflow.getHandle('ledger:standalone-ledger').describe()).rejects.toThrow(/not found/i);
  });
});
