import type { RunOverview } from '../../src/operator/run-view';

/** What `teamrun status` reads of an open run with nothing in it yet: a unit test sets what it is about. */
export function runOverview(extra: Partial<RunOverview> = {}): RunOverview {
  return {
    workflowId: 'r1',
    open: true,
    name: null,
    state: 'running',
    failure: null,
    stats: null,
    budget: null,
    executions: null,
    maxConcurrent: null,
    pendingAdjudications: [],
    attempts: [],
    cancelRequestedAt: null,
    ...extra,
  };
}
