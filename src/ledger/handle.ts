/**
 * A ledger's workflow reached by its id, from Node: its handle, and an update sent with a start
 * (the ledger starts on first use). Shared by the operator's calls (client.ts) and the run's
 * activities (activities.ts, renewal.ts), so neither side imports the other.
 */
import { WithStartWorkflowOperation, type Client, type WorkflowHandle } from '@temporalio/client';
import type { LedgerLimits, RegisterRequest } from '../contract';
import { ledgerWorkflowId } from '../plan/requests/ledger';
import type { budgetLedger } from './workflow';
import * as lm from './messages';

export type LedgerHandle = WorkflowHandle<typeof budgetLedger>;

/** Where a ledger's workflow runs if this call starts it, and when it hands over to a fresh history. */
export interface LedgerStartOptions {
  taskQueue: string;
  continueAsNewAfterEvents?: number;
}

export function ledgerHandle(client: Client, id: string): LedgerHandle {
  return client.workflow.getHandle<typeof budgetLedger>(ledgerWorkflowId(id));
}

/** Starts the ledger's workflow if it is not running, and sends `update` to it in the same call. */
export function withLedger(id: string, limits: LedgerLimits, options: LedgerStartOptions) {
  const { taskQueue, continueAsNewAfterEvents } = options;
  return new WithStartWorkflowOperation<typeof budgetLedger>(lm.LEDGER_WORKFLOW_TYPE, {
    workflowId: ledgerWorkflowId(id),
    taskQueue,
    args: [{ id, limits, ...(continueAsNewAfterEvents === undefined ? {} : { continueAsNewAfterEvents }) }],
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
  return client.workflow.executeUpdateWithStart(lm.ledgerRegisterUpdate, {
    args: [request],
    startWorkflowOperation: withLedger(id, {}, options),
  });
}
