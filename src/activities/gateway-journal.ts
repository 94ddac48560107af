/**
 * The attempt gateway's `/journal`: an agent attempt's steps in its task's journal workflow
 * (src/agent), proven as this attempt's. At `open` the gateway draws a hash chain and sends its
 * anchor with a one-time nonce, which the journal confirms with this worker on its stop queue; each
 * later write carries the chain's next link. Writes go one at a time, so the links arrive in order.
 */
import type { Client } from '@temporalio/client';
import { journalUpdate } from '../agent/messages';
import { JOURNAL_WORKFLOW_TYPE, journalId, type JournalRequest, type JournalSnapshot } from '../agent/types';
import type { AttemptProof } from '../contract';
import { retryUpdate } from '../sdk/update-retry';
import { ChainExhausted, HashChain } from './hash-chain';
import type { AttemptIdentity, ProvenMessage } from './interface';
import type { Redactor } from './redact';

/** An agent attempt's journal side, as its gateway holds it. */
export interface JournalAccess {
  identity: AttemptIdentity;
  redactor: Redactor;
  /** The run's task queue, where the journal workflow runs. */
  queue: string;
  chain?: HashChain;
  /** The write in flight: the next waits for it. */
  writing: Promise<unknown>;
}

export interface JournalDeps {
  client: Client;
  /** A one-time nonce the gateway will confirm for this attempt, this message and this anchor. */
  prove: (message: ProvenMessage, anchor: string) => AttemptProof;
  deadlineMs: number;
}

/** Refused before anything is sent (no journal for this attempt, or not opened yet). */
export class JournalUnavailable extends Error {}

export function writeJournal(deps: JournalDeps, access: JournalAccess, body: Record<string, unknown>) {
  const write = access.writing.then(
    () => send(deps, access, body),
    () => send(deps, access, body),
  );
  access.writing = write.catch(() => undefined);
  return write;
}

async function send(deps: JournalDeps, access: JournalAccess, body: Record<string, unknown>): Promise<unknown> {
  const { client } = deps;
  const { identity } = access;
  const workflowId = journalId(identity.workflowId, identity.taskKey);
  const request = {
    ...(access.redactor.deep(body) as object),
    fencingToken: identity.fencingToken,
  } as JournalRequest;
  // Whatever the body says, the proof is the gateway's own.
  delete request.anchor;
  delete request.attempt;
  delete request.link;
  if (request.op === 'open') {
    await startJournal(client, workflowId, access);
    access.chain = new HashChain();
    request.anchor = access.chain.anchor;
    request.attempt = deps.prove('journal', request.anchor);
  } else {
    if (!access.chain) throw new JournalUnavailable(`${String(request.op)}: this attempt has not opened its journal`);
    try {
      request.link = access.chain.next();
    } catch (err) {
      if (err instanceof ChainExhausted) throw new JournalUnavailable(`${String(request.op)}: ${err.message}`);
      throw err;
    }
  }
  return client.withDeadline(Date.now() + deps.deadlineMs, () =>
    retryUpdate((updateId) =>
      client.workflow.getHandle(workflowId).executeUpdate(journalUpdate, { args: [request], updateId }),
    ),
  );
}

/**
 * Starts the task's journal if none runs, on the run's queue. A journal someone else started under
 * this id on another queue or as another type would answer with its own code: refused.
 */
async function startJournal(client: Client, workflowId: string, access: JournalAccess): Promise<void> {
  const { identity, queue } = access;
  const start: JournalSnapshot = {
    runWorkflowId: identity.workflowId,
    key: identity.taskKey,
    fencingToken: identity.fencingToken,
    entries: [],
    turnOpen: 0,
    pending: [],
  };
  const handle = await client.workflow.start(JOURNAL_WORKFLOW_TYPE, {
    workflowId,
    taskQueue: queue,
    args: [start],
    workflowIdConflictPolicy: 'USE_EXISTING',
  });
  const running = await handle.describe();
  if (running.type !== JOURNAL_WORKFLOW_TYPE || running.taskQueue !== queue) {
    throw new JournalUnavailable(
      `open: workflow ${workflowId} runs as ${running.type} on task queue ${running.taskQueue}, ` +
        `not as ${JOURNAL_WORKFLOW_TYPE} on ${queue}: it is not this task's journal`,
    );
  }
}
