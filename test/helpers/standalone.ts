import { ApplicationFailure } from '@temporalio/common';
import { expect } from 'vitest';
import { testClient } from './env';

/**
 * Starts activity `type` on `taskQueue` the way a client with start rights can, with no workflow behind it (Temporal's
 * standalone activities), one try, and says how it ended: its failure's type and message, or what it returned.
 */
export async function startStandalone(
  type: string,
  taskQueue: string,
  input: unknown,
): Promise<{ type?: string; message?: string; returned?: unknown }> {
  const client = await testClient();
  try {
    const returned = await client.activity.execute(type, {
      id: `standalone-${type}-${Date.now()}`,
      taskQueue,
      args: [input],
      startToCloseTimeout: '30s',
      retry: { maximumAttempts: 1 },
    });
    return { returned };
  } catch (err) {
    let cause: unknown = err;
    while (cause instanceof Error && !(cause instanceof ApplicationFailure) && cause.cause) cause = cause.cause;
    if (cause instanceof ApplicationFailure) return { type: cause.type ?? undefined, message: cause.message };
    return { type: (err as Error).name, message: (err as Error).message };
  }
}

/**
 * Starts a teamrun task's activity `type` (a helper library's: its argument teamrun's shape, for no run) on its own,
 * and expects the helper to refuse it before it runs.
 */
export async function expectNotScheduled(type: string, taskQueue: string): Promise<void> {
  const task = { workflowId: 'no-run', taskKey: 'research', attempt: 1, fencingToken: 1, leaseId: 'no-run/research/1' };
  const got = await startStandalone(type, taskQueue, { ...task, holder: 'nobody', input: { topic: 'x' } });
  expect(got.type, JSON.stringify(got)).toBe('TeamActivityNotScheduled');
  expect(got.message).toContain(`activity ${type} (id standalone-${type}-`);
  expect(got.message).toContain('was started by a client, not scheduled by a workflow');
}
