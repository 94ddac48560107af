/**
 * A ledger's workflow reached by its id, from Node: its handle, its updates, and an update sent
 * with a start (the ledger starts on first use). Shared by the operator's calls (client.ts) and
 * the run's activities (activities.ts, renewal.ts), so neither side imports the other. The ledger
 * continues as new too, so its updates go through `retryUpdate` like a team run's.
 */
import { type Client, type WorkflowHandle } from '@temporalio/client';
import type { UpdateDefinition } from '@temporalio/common';
import type { LedgerLimits, RegisterRequest } from '../contract';
import type { budgetLedger } from './workflow';
export type LedgerHandle = WorkflowHandle<typeof budgetLedger>;
/** Where a ledger's workflow runs if this call starts it, and when it hands over to a fresh history. */
export interface LedgerStartOptions {
    taskQueue: string;
    continueAsNewAfterEvents?: number;
}
export declare function ledgerHandle(client: Client, id: string): LedgerHandle;
/** Sends a ledger's workflow `update`, again while a handover refuses it (under `updateId`, when given). */
export declare function updateLedger<Ret, Request>(client: Client, id: string, update: UpdateDefinition<Ret, [Request]>, request: Request, updateId?: string): Promise<Ret>;
/**
 * Starts the ledger's workflow if it is not running and sends it `update` in the same call, again
 * while a handover refuses it (a start operation serves one call only, so each try has its own).
 */
export declare function updateLedgerWithStart<Ret, Request>(client: Client, id: string, update: UpdateDefinition<Ret, [Request]>, request: Request, limits: LedgerLimits, options: LedgerStartOptions): Promise<Ret>;
/** Registers a run with a ledger, starting the ledger (with no limits) if it does not exist yet. */
export declare function registerWithLedger(client: Client, id: string, request: RegisterRequest, options: {
    taskQueue: string;
}): Promise<import("../contract").LedgerRegisterVerdict>;
