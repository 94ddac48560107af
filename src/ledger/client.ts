/**
 * An operator's calls on a shared ledger (`teamrun ledger`): create or configure it, read its
 * status, abort every run registered with it.
 */
import type { Client } from '@temporalio/client';
import type { LedgerLimits, LedgerStatus } from '../contract';
import { ledgerHandle, updateLedger, updateLedgerWithStart, type LedgerStartOptions } from './handle';
import * as lm from './messages';

/** Creates a ledger with these limits, or gives a running one these limits. */
export async function createLedger(
  client: Client,
  id: string,
  limits: LedgerLimits,
  options: LedgerStartOptions,
): Promise<LedgerStatus> {
  return updateLedgerWithStart(client, id, lm.ledgerConfigureUpdate, { limits }, limits, options);
}

export async function ledgerStatus(client: Client, id: string): Promise<LedgerStatus> {
  return ledgerHandle(client, id).query(lm.ledgerStatusQuery);
}

export async function abortAllLedger(client: Client, id: string, request: { reason?: string; actor?: string } = {}) {
  return updateLedger(client, id, lm.ledgerAbortAllUpdate, request);
}
