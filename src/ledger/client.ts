/**
 * An operator's calls on a shared ledger (`teamrun ledger`): create or configure it, read its
 * status, resolve its lost attempts, abort every run registered with it.
 */
import type { Client } from '@temporalio/client';
import type { LedgerLimits, LedgerResolveVerdict, LedgerStatus, ResolveRequest } from '../contract';
import { ledgerHandle, updateLedger, updateLedgerWithStart, type LedgerStartOptions } from './handle';
import * as lm from './messages';

/**
 * Creates a ledger with these limits, or gives a running one these limits. Limits only tighten: a loosening is
 * refused (`loosening_refused`) unless `force` comes with the `actor` who forces it, which the ledger records.
 */
export async function createLedger(
  client: Client,
  id: string,
  limits: LedgerLimits,
  options: LedgerStartOptions & { force?: boolean; actor?: string },
): Promise<LedgerStatus> {
  const { force, actor, ...start } = options;
  const request = { limits, ...(force ? { force } : {}), ...(actor ? { actor } : {}) };
  return updateLedgerWithStart(client, id, lm.ledgerConfigureUpdate, request, limits, start);
}

/** Settles the ledger's lost attempts (recorded usage, or their reservations released as the charge). */
export async function resolveLedger(
  client: Client,
  id: string,
  request: ResolveRequest,
): Promise<LedgerResolveVerdict> {
  return updateLedger(client, id, lm.ledgerResolveUpdate, request);
}

export async function ledgerStatus(client: Client, id: string): Promise<LedgerStatus> {
  return ledgerHandle(client, id).query(lm.ledgerStatusQuery);
}

export async function abortAllLedger(client: Client, id: string, request: { reason?: string; actor?: string } = {}) {
  return updateLedger(client, id, lm.ledgerAbortAllUpdate, request);
}
