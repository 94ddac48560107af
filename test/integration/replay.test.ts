import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { describe, expect, inject, it } from 'vitest';
import { historyFromJSON } from '../helpers/history-json';

/**
 * Histories of real runs (recorded by `npm run record-histories`), replayed with today's
 * workflow code. A change that would make running workflows fail on their next task (a command
 * added, dropped or reordered for the same history) fails here. Re-record only for a change
 * that is meant to be incompatible, and ship that one as a new workflow type or behind a patch.
 */
const dir = path.resolve(__dirname, '../fixtures/histories');

interface Fixture {
  workflowId: string;
  status: string;
  history: { events: Array<Record<string, unknown>> };
}

const fixtures = readdirSync(dir)
  .filter((file) => file.endsWith('.json'))
  .sort()
  .map((file) => ({
    name: file.slice(0, -'.json'.length),
    ...(JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Fixture),
  }));

// Replay workers log every start and stop at INFO, and the tampered history's failure at WARN.
Runtime.install({ logger: new DefaultLogger('ERROR') });

async function replay(histories: Array<{ workflowId: string; history: unknown }>) {
  const results: Array<{ workflowId: string; error: string | null }> = [];
  const replayed = Worker.runReplayHistories(
    { workflowBundle: { codePath: inject('workflowBundle') }, replayName: 'teamrun-fixtures' },
    histories.map(({ workflowId, history }) => ({ workflowId, history: historyFromJSON(history) })),
  );
  for await (const result of replayed)
    results.push({ workflowId: result.workflowId, error: result.error ? String(result.error) : null });
  return results;
}

describe('replaying recorded team runs with the current workflow code', () => {
  it("has a recorded success, retry, lease expiry, adjudicated lease loss, a stop through the worker's stop queue, a retried refused addition, an agent's journal (closed by its run's end too), messages taken on signature and a key confirmed once for messages and results", () => {
    expect(fixtures.map((f) => [f.name, f.status])).toEqual([
      ['agent-run-failed-journal', 'completed'],
      ['agent-run-failed', 'failed'],
      ['agent-steer-journal', 'completed'],
      ['agent-steer', 'succeeded'],
      ['interrupt-stop', 'unresolved'],
      ['lease-adjudicated', 'succeeded'],
      ['lease-expiry', 'succeeded'],
      ['retry', 'succeeded'],
      ['shared-proof-keys', 'succeeded'],
      ['signed-asks', 'succeeded'],
      ['spawn-cycle-retried', 'failed'],
      ['success', 'succeeded'],
    ]);
    const types = (name: string) => fixtures.find((f) => f.name === name)!.history.events.map((e) => e.eventType);
    expect(types('retry')).toContain('EVENT_TYPE_TIMER_FIRED');
    // A journal left open by a failed attempt closed when it found its run closed: its check is an activity.
    expect(types('agent-run-failed-journal')).toContain('EVENT_TYPE_ACTIVITY_TASK_COMPLETED');
    expect(types('lease-expiry')).toContain('EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT');
    // Recorded when tasks printed as a cycle were retried: it must replay so, behind its patch.
    expect(types('spawn-cycle-retried').filter((t) => t === 'EVENT_TYPE_ACTIVITY_TASK_SCHEDULED')).toHaveLength(3);
    expect(types('lease-adjudicated')).toContain('EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED');
    // A steer schedules the steerAgent activity from its update; the agent's steps arrive as signals.
    const agent = fixtures.find((f) => f.name === 'agent-steer')!.history.events;
    expect(JSON.stringify(agent)).toContain('"steerAgent"');
    expect(JSON.stringify(agent)).toContain('"agentSteps"');
    // Its journal, recorded before the proofs (no patch marker): each step an update, applied as it was then.
    expect(types('agent-steer-journal')).toContain('EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED');
    expect(types('agent-steer-journal')).not.toContain('EVENT_TYPE_MARKER_RECORDED');
    // Three messages and four results of a governed run, sent together: one round trip confirmed the worker's key.
    const shared = JSON.stringify(fixtures.find((f) => f.name === 'shared-proof-keys')!.history);
    expect(shared.split('"confirmAttemptRequest"')).toHaveLength(2);
    expect(types('interrupt-stop')).toEqual(
      expect.arrayContaining(['EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED', 'EVENT_TYPE_ACTIVITY_TASK_CANCEL_REQUESTED']),
    );
  });

  it('replays every recorded history without a nondeterminism error', async () => {
    const results = await replay(fixtures);
    expect(results).toEqual(fixtures.map((f) => ({ workflowId: f.workflowId, error: null })));
  });

  it('fails a history whose commands differ from what the code does (the check is real)', async () => {
    const success = fixtures.find((f) => f.name === 'success')!;
    // The first attempt the code schedules is `fetch#1`; this history claims it scheduled `fetch#7`.
    const tampered = JSON.parse(JSON.stringify(success.history).replaceAll('"fetch#1"', '"fetch#7"')) as unknown;
    const [result] = await replay([{ workflowId: success.workflowId, history: tampered }]);
    expect(result.error).toMatch(/nondetermin/i);
  });
});
