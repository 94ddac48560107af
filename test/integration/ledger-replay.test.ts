import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { describe, expect, inject, it } from 'vitest';
import { historyFromJSON } from '../helpers/history-json';

/**
 * A `budgetLedger` history recorded by the code before ledgers had operators (register, acquire, settle, a lost
 * attempt resolved, a tightening, a forced loosening, two abort-alls, then continue-as-new), replayed with today's
 * workflow code: a ledger running when the new code is deployed must go on. replay.test.ts does the same for runs.
 */
const fixture = JSON.parse(
  readFileSync(path.resolve(__dirname, '../fixtures/ledger-histories/before-operators.json'), 'utf8'),
) as { workflowId: string; history: { events: Array<{ eventType: string }> } };

Runtime.install({ logger: new DefaultLogger('ERROR') });

const replay = (events: unknown) =>
  Worker.runReplayHistory(
    { workflowBundle: { codePath: inject('workflowBundle') }, replayName: 'ledger-fixture' },
    historyFromJSON(events),
    fixture.workflowId,
  );

describe('replaying a recorded ledger with the current workflow code', () => {
  it('replays a ledger recorded before operators, up to its continue-as-new, without a nondeterminism error', async () => {
    const types = fixture.history.events.map((e) => e.eventType);
    expect(types).toContain('EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED');
    expect(types).toContain('EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED');
    expect(types.at(-1)).toBe('EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW');
    await expect(replay(fixture.history)).resolves.toBeUndefined();
  });

  it('fails a history whose updates no longer lead to its commands (the check is real)', async () => {
    // Its abort-alls, read as unregisters, no longer signal the registered run the history says they did.
    const tampered = JSON.parse(JSON.stringify(fixture.history).replaceAll('"name":"abortAll"', '"name":"unregister"'));
    await expect(replay(tampered)).rejects.toThrow(/nondetermin/i);
  });
});
