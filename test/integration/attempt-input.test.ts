import { describe, expect, it } from 'vitest';
import { runForTest, workerForTest } from '../helpers/scenario';

const show =
  'printf \'::teamrun-output::{"run":"%s","lease":"%s","inputs":%s}\\n\' "$TEAMRUN_WORKFLOW_ID" "$TEAMRUN_LEASE_ID" "$TEAMRUN_INPUTS"';

describe("an attempt's compact input (issue 31)", () => {
  it('stores only what the worker cannot derive, and the task still sees its run, lease and inputs', async () => {
    const worker = await workerForTest();
    const handle = await runForTest(
      {
        name: 'compact-input',
        teammates: 2,
        tasks: [
          { key: 'a', executor: { kind: 'shell', command: 'printf \'::teamrun-output::{"n":1}\\n\'' } },
          { key: 'b', title: 'Second', dependsOn: ['a'], executor: { kind: 'shell', command: show } },
        ],
      },
      worker,
    );
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    const b = result.tasks.find((t) => t.key === 'b')!;
    expect(b.output).toEqual({ run: handle.workflowId, lease: `${handle.workflowId}/b/1`, inputs: { a: { n: 1 } } });

    const history = await handle.fetchHistory();
    const scheduled = (history.events ?? []).flatMap((e) => {
      const attrs = e.activityTaskScheduledEventAttributes;
      if (!attrs) return [];
      const data = attrs.input?.payloads?.[0]?.data;
      const summary = e.userMetadata?.summary?.data;
      return [
        {
          input: JSON.parse(Buffer.from(data!).toString('utf8')) as Record<string, unknown>,
          summary: summary ? (JSON.parse(Buffer.from(summary).toString('utf8')) as string) : null,
        },
      ];
    });
    expect(scheduled.map((s) => Object.keys(s.input).sort())).toEqual([
      ['executor', 'holder'],
      ['dependencyOutputs', 'executor', 'holder', 'title'],
    ]);
    // The activity id already names the task and token: a summary only where the title says more.
    expect(scheduled.map((s) => s.summary)).toEqual([null, 'Second']);
  });
});
