import { WithStartWorkflowOperation, type Client, type WorkflowHandle } from '@temporalio/client';
import type { LedgerLimits, LedgerStatus, RegisterRequest } from '../contract';
import { ledgerWorkflowId } from '../plan/requests/ledger';
import type { budgetLedger } from '../workflows/budget-ledger';
import * as lm from '../workflows/ledger-messages';

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
function withLedger(id: string, limits: LedgerLimits, options: LedgerStartOptions) {
  const { taskQueue, continueAsNewAfterEvents } = options;
  return new WithStartWorkflowOperation<typeof budgetLedger>(lm.LEDGER_WORKFLOW_TYPE, {
    workflowId: ledgerWorkflowId(id),
    taskQueue,
    args: [{ id, limits, ...(continueAsNewAfterEvents === undefined ? {} : { continueAsNewAfterEvents }) }],
    workflowIdConflictPolicy: 'USE_EXISTING',
    staticSummary: `shared budget ${id}`,
  });
}

/** Creates a ledger with these limits, or gives a running one these limits. */
export async function createLedger(
  client: Client,
  id: string,
  limits: LedgerLimits,
  options: LedgerStartOptions,
): Promise<LedgerStatus> {
  return client.workflow.executeUpdateWithStart(lm.ledgerConfigureUpdate, {
    args: [{ limits }],
    startWorkflowOperation: withLedger(id, limits, options),
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

export async function ledgerStatus(client: Client, id: string): Promise<LedgerStatus> {
  return ledgerHandle(client, id).query(lm.ledgerStatusQuery);
}

export async function abortAllLedger(client: Client, id: string, request: { reason?: string; actor?: string } = {}) {
  return ledgerHandle(client, id).executeUpdate(lm.ledgerAbortAllUpdate, { args: [request] });
}
