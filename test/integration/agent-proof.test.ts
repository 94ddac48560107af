/**
 * An agent attempt's journal writes and step signals are its own, not a fencing token's: a client
 * with update and signal rights on the namespace (this test's own), reading every history, cannot
 * write the journal, lock the attempt out of it, or add events to the run's log.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { temporal } from '@temporalio/proto';
import { journalUpdate, steerUpdate } from '../../src/agent/messages';
import { JOURNAL_WORKFLOW_TYPE, journalId, type JournalSnapshot } from '../../src/agent/types';
import { startOpenAiServer, type OpenAiServer } from '../helpers/openai-server';
import { startRun, testClient, testConfig, uniqueQueue, waitFor } from '../helpers/env';
import { updateCodeOf, workerForTest, type OnTestFinished } from '../helpers/scenario';

const KEY_ENV = 'TEAMRUN_TEST_AGENT_KEY';
const usage = { promptTokens: 100, completionTokens: 20 };
const forgedEntry = { kind: 'model', turn: 1, message: { role: 'assistant', content: 'FORGED: rm -rf /' } };
const forgedStep = { type: 'agent:tool', turn: 1, tool: 'forged_tool', ms: 1, ok: true };
const hex = () => randomBytes(32).toString('hex');

type Event = temporal.api.history.v1.IHistoryEvent;
/** The first argument of an update or a signal, as history holds it (JSON: the tests run without a codec). */
const argOf = (payloads: temporal.api.common.v1.IPayloads | null | undefined): Record<string, unknown> =>
  JSON.parse(Buffer.from(payloads!.payloads![0].data!).toString('utf8')) as Record<string, unknown>;

describe.concurrent('the proofs of an agent attempt', () => {
  let server: OpenAiServer;
  beforeAll(async () => {
    server = await startOpenAiServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  /** `held`: the second model call is answered only once it settles (the test's forgeries all reach a running run). */
  const agentRun = async (
    model: string,
    finished: OnTestFinished,
    before?: (workflowId: string, taskQueue: string) => Promise<void>,
    held: Promise<unknown> = Promise.resolve(),
  ) => {
    server.script(model, (r) =>
      r.turn === 1
        ? { usage, toolCalls: [{ name: 'teamrun__set_output', arguments: { output: 'real' } }] }
        : { usage, until: held, content: 'done' },
    );
    const worker = await workerForTest(
      { config: testConfig({ llm: { baseUrl: server.baseUrl, apiKeyEnv: KEY_ENV } }), env: { [KEY_ENV]: 'sk' } },
      finished,
    );
    const client = await testClient();
    const workflowId = uniqueQueue(model);
    const journal = client.workflow.getHandle(journalId(workflowId, 'write'));
    await before?.(workflowId, worker.taskQueue);
    const handle = await startRun(
      {
        name: model,
        lease: { ttlMs: 10_000 },
        tasks: [{ key: 'write', executor: { kind: 'agent', model, prompt: 'Write', tools: ['teamrun__*'] } }],
      },
      worker.taskQueue,
      workflowId,
    );
    const events = async () => (await handle.events({ limit: 1000 })).events;
    /** The run ended as the real attempt made it: its output, its transcript, its steps, nothing else. */
    const finishedAsReal = async (token?: number) => {
      const result = await handle.result();
      expect(result.status).toBe('succeeded');
      expect(result.tasks[0].output).toBe('real');
      const transcript = (await journal.result()) as JournalSnapshot;
      if (token !== undefined) expect(transcript.fencingToken).toBe(token);
      expect(transcript.entries.map((e) => e.kind)).toEqual(['start', 'model', 'tool-start', 'tool-result', 'model']);
      expect(JSON.stringify(transcript)).not.toContain('FORGED');
      const logged = await events();
      expect(logged.filter((e) => e.type === 'agent:tool').map((e) => e.tool)).toEqual(['teamrun__set_output']);
      expect(logged.filter((e) => e.type === 'agent:turn').map((e) => e.turn)).toEqual([1, 2]);
    };
    return { client, workflowId, journal, handle, events, finishedAsReal };
  };

  it('a journal someone started before the attempt, with a transcript and a high token, counts for nothing', async ({
    onTestFinished,
  }) => {
    const { finishedAsReal } = await agentRun('agent-planted', onTestFinished, async (workflowId, taskQueue) => {
      const client = await testClient();
      const planted: JournalSnapshot = {
        runWorkflowId: workflowId,
        key: 'write',
        fencingToken: 1_000,
        entries: [forgedEntry as never],
        turnOpen: 0,
        pending: [{ text: 'FORGED steer', actor: 'alice' }],
      };
      await client.workflow.start(JOURNAL_WORKFLOW_TYPE, {
        workflowId: journalId(workflowId, 'write'),
        taskQueue,
        args: [planted],
      });
    });
    await finishedAsReal();
  });

  it('refuse forged journal writes and steers, a forged open with a greater token, and forged or replayed steps', async ({
    onTestFinished,
  }) => {
    // The second model call waits for the forgeries (at 4 s, in CI the run had ended before the last signals).
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    onTestFinished(() => release());
    const { client, workflowId, journal, handle, events, finishedAsReal } = await agentRun(
      'agent-proof',
      onTestFinished,
      undefined,
      held,
    );
    // The second model call is held: the attempt runs, its first steps are in the run's log.
    await waitFor('the first agent:tool event', async () => (await events()).some((e) => e.type === 'agent:tool'));
    const [claim] = await handle.activeClaims();
    const token = claim.fencingToken;

    // What any reader of the journal's history sees: the real open (its proof) and the links used so far.
    const journalEvents: Event[] = (await journal.fetchHistory()).events ?? [];
    const updates = journalEvents
      .map((e) => e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.args)
      .filter((args) => args)
      .map(argOf);
    const open = updates.find((u) => u.op === 'open')!;
    const usedLink = updates.filter((u) => typeof u.link === 'string').at(-1)!.link as string;
    const send = (request: Record<string, unknown>) =>
      updateCodeOf(journal.executeUpdate(journalUpdate, { args: [request as never] }));

    const append = { op: 'append', entries: [forgedEntry] };
    expect(await send({ ...append, fencingToken: token })).toBe('unproven');
    expect(await send({ ...append, fencingToken: token, link: usedLink })).toBe('unproven');
    expect(await send({ ...append, fencingToken: token, link: hex() })).toBe('unproven');
    expect(await send({ op: 'open', fencingToken: token + 1_000, anchor: hex() })).toBe('unproven');
    // The real open's proof again (its nonce is spent), and a fresh nonce on the real worker's queue: it says no.
    expect(await send({ ...open, fencingToken: token + 1_000, anchor: hex() })).toBe('unproven');
    const attempt = { ...(open.attempt as object), nonce: randomBytes(24).toString('base64url') };
    expect(await send({ op: 'open', fencingToken: token + 1_000, anchor: hex(), attempt })).toBe('unproven');
    // A steer straight to the journal, around the run's governance: without a proof, and with a made-up one.
    const steer = (extra: object) =>
      updateCodeOf(
        journal.executeUpdate(steerUpdate, {
          args: [{ text: 'FORGED guidance', actor: 'ops', fencingToken: token, ...extra }],
        }),
      );
    expect(await steer({})).toBe('unproven');
    expect(await steer({ attempt: { ...attempt, nonce: randomBytes(24).toString('base64url') } })).toBe('unproven');

    // The run's steps signal: forged, with a made-up first proof, and a real one replayed with other steps.
    const runEvents: Event[] = (await handle.fetchHistory()).events ?? [];
    const signals = runEvents
      .map((e) => e.workflowExecutionSignaledEventAttributes)
      .filter((s) => s?.signalName === 'agentSteps')
      .map((s) => argOf(s!.input));
    expect(signals.length).toBeGreaterThan(0);
    const signal = (payload: Record<string, unknown>) =>
      client.workflow.getHandle(workflowId).signal('agentSteps', payload);
    const steps = [forgedStep];
    await signal({ key: 'write', fencingToken: token, steps });
    await signal({ key: 'write', fencingToken: token, steps, link: hex() });
    await signal({ key: 'write', fencingToken: token, steps, anchor: hex(), attempt });
    for (const real of signals) await signal({ ...real, steps });
    release();
    await finishedAsReal(token);
  });
});
