import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { coresdk, temporal } from '@temporalio/proto';
import { setActivator } from '@temporalio/workflow/lib/global-attributes';
import { Activator } from '@temporalio/workflow/lib/internals';
import { afterEach, describe, expect, it } from 'vitest';
import { transformHistoryPayloads } from '../../src/sdk/node-internals';
import { optionalTsToMs, tsToMs, type History } from '../../src/sdk/proto';
import { completeAsCanceled } from '../../src/sdk/workflow-internals';

/**
 * The SDK's private parts teamrun uses, exercised on the SDK itself (no stand-in): a release that
 * renames or reshapes one of them fails here, not in a run. `@temporalio/*` is pinned to a minor
 * range in package.json; raising it means this file passes on the new version.
 */

/** The SDK's own workflow activator, as a worker builds it for a workflow run. */
function activator(): Activator {
  return new Activator({
    info: {} as never,
    now: Date.now(),
    showStackTraceSources: false,
    sourceMap: {} as never,
    getTimeOfDay: () => BigInt(Date.now()) * 1_000_000n,
    randomnessSeed: [1],
    registeredActivityNames: new Set(),
    stackTracesEnabled: false,
  } as ConstructorParameters<typeof Activator>[0]);
}

describe('the workflow side: closing a run as Canceled with its result', () => {
  afterEach(() => setActivator(undefined));

  it('given a running workflow, completeAsCanceled completes it with one CancelWorkflowExecution carrying the details', () => {
    const workflow = activator();
    setActivator(workflow);
    const result = { status: 'cancelled', tasks: [] };

    completeAsCanceled(result);

    expect(workflow.completed).toBe(true);
    const { commands } = workflow.concludeActivation();
    expect(commands).toEqual([
      { cancelWorkflowExecution: { details: { payloads: [defaultPayloadConverter.toPayload(result)] } } },
    ]);
    // The details survive the wire format core reads: the command has the field.
    const wire = coresdk.workflow_commands.WorkflowCommand.decode(
      coresdk.workflow_commands.WorkflowCommand.encode(commands[0]).finish(),
    );
    const [payload] = wire.cancelWorkflowExecution!.details!.payloads!;
    expect(defaultPayloadConverter.fromPayload(payload)).toEqual(result);
  });

  it('outside a workflow, it refuses instead of pushing a command nowhere', () => {
    expect(() => completeAsCanceled({})).toThrow('Workflow uninitialized');
  });
});

describe('the node side: the payloads of a fetched history', () => {
  const payload = (text: string): Payload => defaultPayloadConverter.toPayload(text);
  const text = (p: Payload | null | undefined) => defaultPayloadConverter.fromPayload<string>(p!);

  it('given a history, every payload list is transformed in place and search attributes are left alone', async () => {
    const history: History = temporal.api.history.v1.History.fromObject({
      events: [
        {
          eventId: 1,
          eventTime: { seconds: 1_700_000_000, nanos: 0 },
          workflowExecutionStartedEventAttributes: {
            input: { payloads: [payload('plan')] },
            memo: { fields: { note: payload('memo') } },
            searchAttributes: { indexedFields: { TeamName: payload('team') } },
          },
        },
        { eventId: 2, activityTaskCompletedEventAttributes: { result: { payloads: [payload('out')] } } },
      ],
    });

    await transformHistoryPayloads(history, async (payloads) => payloads.map((p) => payload(`${text(p)}!`)));

    const [started, completed] = history.events!;
    const attributes = started.workflowExecutionStartedEventAttributes!;
    expect(text(attributes.input!.payloads![0])).toBe('plan!');
    expect(text(attributes.memo!.fields!.note)).toBe('memo!');
    expect(text(attributes.searchAttributes!.indexedFields!.TeamName)).toBe('team');
    expect(text(completed.activityTaskCompletedEventAttributes!.result!.payloads![0])).toBe('out!');
  });

  it('timestamps read as the SDK decodes them: Long seconds, numbers from plain objects, nanos floored to ms', () => {
    const event = temporal.api.history.v1.HistoryEvent.fromObject({
      eventTime: { seconds: 1_700_000_000, nanos: 987_654_321 },
    });
    expect(tsToMs(event.eventTime)).toBe(1_700_000_000_987);
    expect(tsToMs({ seconds: 5 as never, nanos: 1_999_999 })).toBe(5_001);
    expect(optionalTsToMs(null)).toBeUndefined();
    expect(() => tsToMs(undefined)).toThrow('Expected timestamp');
  });
});
