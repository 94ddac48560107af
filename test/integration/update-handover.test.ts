import type { WorkflowHandle, WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import type { TeamRunHandle } from '../../src/client';
import type { TeamPlanInput } from '../../src/plan/schema';
import * as msg from '../../src/workflows/messages';
import { testClient, waitFor } from '../helpers/env';
import { allTaskViews, runForTest, workerForTest } from '../helpers/scenario';

/** Approvals decided through the handovers, and as many tasks added: 200 updates in all. */
const PAIRS = 100;
/** Updates in flight at once: the dev server takes at most 10 per workflow. */
const LANES = 5;

/**
 * A run that hands over every ~200 events: 100 approvals waiting for a decision, a gate that
 * keeps it open until the test is done, and a 10-second attempt it carries across the first handovers.
 */
function plan(): TeamPlanInput {
  return {
    name: 'update-handover',
    teammates: 4,
    continueAsNewAfterEvents: 200,
    tasks: [
      { key: 'gate', executor: { kind: 'approval' } },
      { key: 'hold', executor: { kind: 'sleep', ms: 10_000 } },
      ...Array.from({ length: PAIRS }, (_, i) => ({ key: `a${i}`, executor: { kind: 'approval' as const } })),
    ],
  };
}

type Update = () => Promise<{ ok: true; idempotent?: true }>;

/**
 * The 200 updates, interleaved: `addTasks` adds a quick task (which then runs, so the history
 * keeps growing), `adjudicate` accepts an approval.
 */
function updates(handle: TeamRunHandle): Array<{ name: string; send: Update }> {
  return Array.from({ length: PAIRS }, (_, i) => [
    {
      name: `addTasks n${i}`,
      send: () =>
        handle.addTasks({ tasks: [{ key: `n${i}`, executor: { kind: 'noop' } }], requestId: `add-${i}`, actor: 'ops' }),
    },
    {
      name: `adjudicate a${i}`,
      send: () => handle.adjudicate({ key: `a${i}`, decision: 'accept', decisionId: `accept-${i}`, actor: 'ops' }),
    },
  ]).flat();
}

/** Sends every update, `LANES` at a time; returns the verdicts and the failures, by update. */
async function sendAll(list: Array<{ name: string; send: Update }>) {
  const verdicts: Array<{ name: string; idempotent: boolean }> = [];
  const failures: Array<{ name: string; error: string }> = [];
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < list.length; i = next++) {
      const { name, send } = list[i];
      try {
        const verdict = await send();
        verdicts.push({ name, idempotent: verdict.idempotent === true });
      } catch (err) {
        const cause = (err as Error).cause as Error | undefined;
        failures.push({ name, error: `${(err as Error).message}${cause ? `: ${cause.message}` : ''}` });
      }
    }
  };
  await Promise.all(Array.from({ length: LANES }, lane));
  return { verdicts, failures };
}

/**
 * Signals while `going()`, one every 20 ms, as an operator's UI sends them: interruptions of a task the run does not
 * have, which it records as `control:rejected`. A signal that reaches a run while it continues as new is what makes
 * the server refuse the continue-as-new, fail that workflow task, and with it the updates the task was handed.
 */
async function signalsWhile(handle: TeamRunHandle, going: () => boolean): Promise<void> {
  for (let i = 0; going(); i++) {
    await handle.signal(msg.interruptTaskSignal, { key: 'ghost', fencingToken: 1, requestId: `ghost-${i}` });
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * The runs the workflow id went through (one more than its handovers), the updates they accepted, by name, and how
 * many each run accepted.
 */
async function chainOf(
  handle: TeamRunHandle,
): Promise<{ runs: number; accepted: Record<string, number>; perRun: number[] }> {
  const client = await testClient();
  let runId = (handle as WorkflowHandle as WorkflowHandleWithFirstExecutionRunId).firstExecutionRunId as
    string | null | undefined;
  let runs = 0;
  const accepted: Record<string, number> = {};
  const perRun: number[] = [];
  while (runId) {
    runs += 1;
    const events = (await client.workflow.getHandle(handle.workflowId, runId).fetchHistory()).events ?? [];
    let inRun = 0;
    for (const event of events) {
      const name = event.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name;
      if (name) {
        accepted[name] = (accepted[name] ?? 0) + 1;
        inRun += 1;
      }
    }
    perRun.push(inRun);
    runId = events.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId;
  }
  return { runs, accepted, perRun };
}

describe('updates sent while a run hands over', () => {
  it('given a run that continues as new every ~200 events, when 200 updates arrive through the handle, then every one is applied once', async () => {
    const worker = await workerForTest();
    const handle = await runForTest(plan(), worker);
    await waitFor('the approvals to wait for a decision', async () => (await handle.adjudications()).length > PAIRS);

    let sending = true;
    const noise = signalsWhile(handle, () => sending);
    // Half the updates, then a pause until the run has handed over, then the rest: on a fast machine the lanes keep an
    // update in flight at every moment, and a run defers its handover until none is, so without the pause every
    // update could land in the first run and none would cross a handover.
    const list = updates(handle);
    const first = await sendAll(list.slice(0, PAIRS));
    const firstRun = (await handle.describe()).runId;
    await waitFor('the run to hand over between the halves', async () => (await handle.describe()).runId !== firstRun);
    const second = await sendAll(list.slice(PAIRS));
    const verdicts = [...first.verdicts, ...second.verdicts];
    const failures = [...first.failures, ...second.failures];
    sending = false;
    await noise;

    expect(failures).toEqual([]);
    expect(verdicts).toHaveLength(2 * PAIRS);
    // An update whose first delivery the server could not confirm (a handover, a timed-out workflow task on a loaded
    // machine) is sent again with the same request id; the run then answers "already done" (idempotent) instead of
    // applying it twice. Such repeats are allowed, and counted below: each is one more acceptance in the chain.
    const repeats = { addTasks: 0, adjudicate: 0 };
    for (const v of verdicts) if (v.idempotent) repeats[v.name.split(' ')[0] as keyof typeof repeats] += 1;
    if (repeats.addTasks + repeats.adjudicate > 0)
      console.log(`[update-handover] answered as repeats: ${JSON.stringify(repeats)}`);
    await handle.adjudicate({ key: 'gate', decision: 'accept', decisionId: 'open-gate', actor: 'ops' });
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    expect((await allTaskViews(handle)).map((t) => `${t.key} ${t.status}`).sort()).toEqual(
      ['gate', 'hold', ...Array.from({ length: PAIRS }, (_, i) => [`a${i}`, `n${i}`]).flat()]
        .map((key) => `${key} succeeded`)
        .sort(),
    );
    for (const record of result.adjudications.filter((a) => a.key !== 'gate'))
      expect(record.decision?.decisionId).toBe(`accept-${record.key.slice(1)}`);
    // Delivered once each, or once more for each repeat the run answered as already done: the task views above show
    // every task and decision applied once.
    const chain = await chainOf(handle);
    expect(chain.accepted).toEqual({ addTasks: PAIRS + repeats.addTasks, adjudicate: PAIRS + 1 + repeats.adjudicate });
    // The updates crossed handovers: at least two of them, and more than one run accepted some (the pause between the
    // halves sees to that). How many handovers there are depends on the machine (a run defers its handover while
    // updates are in flight), so the count is a floor, not a figure.
    console.log(`[update-handover] runs ${chain.runs}, updates accepted per run ${chain.perRun.join(' ')}`);
    expect(chain.runs).toBeGreaterThanOrEqual(3);
    expect(chain.perRun.filter((n) => n > 0).length).toBeGreaterThanOrEqual(2);
  });
});
