import { ServiceError, WorkflowUpdateFailedError } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { UPDATE_RETRY, retryUpdate } from '../../src/sdk/update-retry';

/** The error the client raises for a gRPC status, shaped as @grpc/grpc-js's (code, details, metadata). */
function grpcRefusal(code: number, details: string): ServiceError {
  const cause = Object.assign(new Error(`${code} ${details}`), { code, details, metadata: {} });
  return new ServiceError('Workflow Update failed', { cause });
}

const handoverRefusal = () =>
  grpcRefusal(9, 'Unable to perform workflow execution update due to unexpected workflow task failure.');

/** A sender that fails with `failures` in turn, then answers; it records the update id of each try. */
function sender(failures: Error[]) {
  const ids: string[] = [];
  const send = (updateId: string) => {
    ids.push(updateId);
    const failure = failures.shift();
    return failure ? Promise.reject(failure) : Promise.resolve('applied');
  };
  return { send, ids };
}

const waits: number[] = [];
const noWait = (ms: number) => {
  waits.push(ms);
  return Promise.resolve();
};

describe('retryUpdate', () => {
  it('given an update refused at a handover twice, when sent, then the third try answers, with the same update id', async () => {
    const { send, ids } = sender([handoverRefusal(), handoverRefusal()]);
    waits.length = 0;
    await expect(retryUpdate(send, undefined, noWait)).resolves.toBe('applied');
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(1);
    // Backing off: each wait within its doubling window.
    expect(waits[0]).toBeGreaterThanOrEqual(UPDATE_RETRY.firstWaitMs / 2);
    expect(waits[1]).toBeGreaterThanOrEqual(UPDATE_RETRY.firstWaitMs);
  });

  it('given a run that keeps refusing, when sent, then it gives up after the bound with the refusal', async () => {
    const refusals = Array.from({ length: 10 }, handoverRefusal);
    const { send, ids } = sender(refusals);
    await expect(retryUpdate(send, 'mine', noWait)).rejects.toThrow(/FAILED_PRECONDITION|Workflow Update failed/);
    expect(ids).toEqual(Array.from({ length: UPDATE_RETRY.tries }, () => 'mine'));
  });

  it('given any other failure, when sent, then it is not sent again', async () => {
    for (const failure of [
      grpcRefusal(5, 'workflow execution already completed'),
      grpcRefusal(8, 'too many outstanding updates'),
      new WorkflowUpdateFailedError('rejected', new Error('not_found: no task "x"')),
    ]) {
      const { send, ids } = sender([failure]);
      await expect(retryUpdate(send, undefined, noWait)).rejects.toBe(failure);
      expect(ids).toHaveLength(1);
    }
  });
});
