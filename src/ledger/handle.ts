/**
 * A ledger's workflow reached by its id, from Node: its handle, its updates, and an update sent
 * with a start (the ledger starts on first use). Shared by the operator's calls (client.ts) and
 * the run's activities (activities.ts, renewal.ts), so neither side imports the other. The ledger
 * continues as new too, so its updates go through `retryUpdate` like a team run's.
 */
import {
  WithStartWorkflowOperation,
  WorkflowNotFoundError,
  type Client,
  type WorkflowHandle,
} from '@temporalio/client';
import { TeamrunError } from '../errors';
import type { UpdateDefinition } from '@temporalio/common';
import type { LedgerLimits, RegisterRequest } from '../contract';
import { ledgerWorkflowId } from '../plan/requests/ledger';
import type { budgetLedger } from './workflow';
import { retryUpdate } from '../sdk/update-retry';
import * as lm from './messages';

export type LedgerHandle = WorkflowHandle<typeof budgetLedger>;

/** Where a ledger's workflow runs if this call starts it, its operators then, and when it hands over. */
export interface LedgerStartOptions {
  taskQueue: string;
  continueAsNewAfterEvents?: number;
  operators?: string[];
}

export function ledgerHandle(client: Client, id: string): LedgerHandle {
  return client.workflow.getHandle<typeof budgetLedger>(ledgerWorkflowId(id));
}

/** Sends a ledger's workflow `update`, again while a handover refuses it (under `updateId`, when given). */
export function updateLedger<Ret, Request>(
  client: Client,
  id: string,
  update: UpdateDefinition<Ret, [Request]>,
  request: Request,
  updateId?: string,
): Promise<Ret> {
  const send = (tryId: string) => ledgerHandle(client, id).executeUpdate(update, { args: [request], updateId: tryId });
  return retryUpdate(send, updateId);
}

/**
 * Starts the ledger's workflow if it is not running and sends it `update` in the same call, again
 * while a handover refuses it (a start operation serves one call only, so each try has its own).
 */
export function updateLedgerWithStart<Ret, Request>(
  client: Client,
  id: string,
  update: UpdateDefinition<Ret, [Request]>,
  request: Request,
  limits: LedgerLimits,
  options: LedgerStartOptions,
): Promise<Ret> {
  return retryUpdate((updateId) =>
    client.workflow.executeUpdateWithStart(update, {
      args: [request],
      updateId,
      startWorkflowOperation: withLedger(id, limits, options),
    }),
  );
}

/** How the ledger's workflow starts if the call that reaches it finds it not running. */
function withLedger(id: string, limits: LedgerLimits, options: LedgerStartOptions) {
  const { taskQueue, continueAsNewAfterEvents, operators } = options;
  return new WithStartWorkflowOperation<typeof budgetLedger>(lm.LEDGER_WORKFLOW_TYPE, {
    workflowId: ledgerWorkflowId(id),
    taskQueue,
    args: [
      {
        id,
        limits,
        ...(operators && { operators }),
        ...(continueAsNewAfterEvents === undefined ? {} : { continueAsNewAfterEvents }),
      },
    ],
    workflowIdConflictPolicy: 'USE_EXISTING',
    staticSummary: `shared budget ${id}`,
  });
}

/** Registers a run with a ledger, starting the ledger (with no limits) if it does not exist yet. */
export async function registerWithLedger(
  client: Client,
  id: string,
  request: RegisterRequest,
  options: { taskQueue: string },
) {
  await refuseSquatter(client, id);
  return updateLedgerWithStart(client, id, lm.ledgerRegisterUpdate, request, {}, options);
}

/** Another workflow holds a ledger's id (`ledger:<name>`): named, with what to do. Code `ledger_squatted`. */
export class LedgerSquatted extends TeamrunError {
  readonly code = 'ledger_squatted';
  constructor(message: string) {
    super(message);
    this.name = 'LedgerSquatted';
  }
}

/**
 * Anyone who may start workflows may start one under a ledger's id first: an update sent to it would never be
 * answered (no worker runs its type) and the run would wait for ever. Refused, naming the squatting workflow.
 */
export async function refuseSquatter(client: Client, id: string): Promise<void> {
  const workflowId = ledgerWorkflowId(id);
  let running;
  try {
    running = await client.workflow.getHandle(workflowId).describe();
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return;
    throw err;
  }
  if (running.status.name !== 'RUNNING' || running.type === lm.LEDGER_WORKFLOW_TYPE) return;
  throw new LedgerSquatted(
    `ledger ${id}: workflow ${workflowId} (run ${running.runId}) runs as ${running.type} on task queue ` +
      `${running.taskQueue}, not as ${lm.LEDGER_WORKFLOW_TYPE}: another workflow holds the ledger's id; end it ` +
      `(temporal workflow terminate --workflow-id '${workflowId}') and try again`,
  );
}
