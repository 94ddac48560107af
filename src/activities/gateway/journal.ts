/**
 * The attempt gateway's `/journal`: an agent attempt's steps in its task's journal workflow
 * (src/agent), proven as this attempt's. At `open` the gateway draws a hash chain and sends its
 * anchor with a one-time nonce, which the journal confirms with this worker on its stop queue; each
 * later write carries the chain's next link. Writes go one at a time, so the links arrive in order.
 */
import type { Client } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import { journalUpdate } from '../../agent/messages';
import { JOURNAL_WORKFLOW_TYPE, journalId, type JournalRequest, type JournalSnapshot } from '../../agent/types';
import type { AttemptProof } from '../../contract';
import { retryUpdate } from '../../sdk/update-retry';
import { ChainExhausted, HashChain } from '../hash-chain';
import type { AttemptIdentity, ProvenMessage } from '../interface';
import type { Redactor } from '../redact';

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

/** Another workflow holds the task's journal id (or keeps planting one there): named. Asking again cannot help. */
export class JournalSquatted extends JournalUnavailable {}

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
 * Starts the task's journal if none runs, on the run's queue, and makes sure the one that runs is one a gateway
 * started: anyone who may start workflows may start one under this id first. One of another type or on another
 * queue is refused, named (`JournalSquatted`). One of this type that a gateway would never have started (a cron
 * schedule, a retry policy, a retry's attempt, a run or execution timeout: each later run would hand it the
 * planter's input as if it were its own continue-as-new) is terminated, naming why, and started again.
 */
async function startJournal(client: Client, workflowId: string, access: JournalAccess): Promise<void> {
  for (let tries = 1; ; tries++) {
    const running = await startOrFind(client, workflowId, access);
    const planted = await plantedBy(client, workflowId, running.runId);
    if (!planted) return;
    if (tries >= 3) {
      throw new JournalSquatted(
        `open: workflow ${workflowId} (run ${running.runId}) was started again with ${planted.why}, as a teamrun ` +
          'gateway never starts a journal: someone keeps planting it; find who starts it, end it and try again',
      );
    }
    // The whole chain its planter started (a cron's or a retry's next run shares its first run), whichever runs now.
    await client.workflow
      .getHandle(workflowId, undefined, { firstExecutionRunId: planted.firstRunId })
      .terminate(`teamrun: not a journal a gateway started (${planted.why}); the attempt starts its own`)
      .catch(() => undefined);
  }
}

async function startOrFind(client: Client, workflowId: string, { identity, queue }: JournalAccess) {
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
    throw new JournalSquatted(
      `open: workflow ${workflowId} (run ${running.runId}) runs as ${running.type} on task queue ` +
        `${running.taskQueue}, not as ${JOURNAL_WORKFLOW_TYPE} on ${queue}: another workflow holds this task's ` +
        `journal id; end it (temporal workflow terminate --workflow-id '${workflowId}') and retry the task`,
    );
  }
  return running;
}

/**
 * What in the journal's start a gateway never asks for, and the first run of its chain; null when nothing (a
 * gateway's start or its own continue-as-new).
 */
async function plantedBy(
  client: Client,
  workflowId: string,
  runId: string,
): Promise<{ why: string; firstRunId?: string } | null> {
  const { history } = await client.workflowService.getWorkflowExecutionHistory({
    namespace: client.options.namespace,
    execution: { workflowId, runId },
    maximumPageSize: 1,
  });
  const started = history?.events?.[0]?.workflowExecutionStartedEventAttributes;
  if (!started) return null;
  const why = plantedWhy(started);
  return why === null ? null : { why, firstRunId: started.firstExecutionRunId || undefined };
}

function plantedWhy(started: temporal.api.history.v1.IWorkflowExecutionStartedEventAttributes): string | null {
  const seconds = (d: { seconds?: unknown; nanos?: number | null } | null | undefined) =>
    Number(d?.seconds ?? 0) + (d?.nanos ?? 0) / 1e9;
  if (started.cronSchedule) return `the cron schedule "${started.cronSchedule}"`;
  if (started.retryPolicy) return 'a retry policy';
  if ((started.attempt ?? 1) > 1) return `attempt ${started.attempt}`;
  if (seconds(started.workflowRunTimeout) > 0) return `a run timeout of ${seconds(started.workflowRunTimeout)} s`;
  if (seconds(started.workflowExecutionTimeout) > 0)
    return `an execution timeout of ${seconds(started.workflowExecutionTimeout)} s`;
  return null;
}
