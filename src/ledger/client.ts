/**
 * An operator's calls on a shared ledger (`teamrun ledger`): create or configure it, read its
 * status, resolve its lost attempts, abort every run registered with it.
 */
import type { Client } from '@temporalio/client';
import type { LedgerLimits, LedgerResolveVerdict, LedgerStatus, ResolveRequest } from '../contract';
import { ledgerHandle, refuseSquatter, updateLedger, updateLedgerWithStart, type LedgerStartOptions } from './handle';
import * as lm from './messages';
import { LedgerOperatorsSchema, parseLedgerRequest } from '../plan/requests/ledger';

/**
 * Creates a ledger with these limits (and `operators`, who alone may then force a loosening, resolve and abort-all),
 * or gives a running one these limits. Limits only tighten: a loosening is refused (`loosening_refused`) unless
 * `force` comes with the `actor` who forces it, which the ledger records; with operators, that actor must be one of
 * them (`forbidden`). A running ledger without operators takes no list (`forbidden`: the first caller would own
 * it); one with a list takes a new list only from one of its operators. A workflow of another type under the
 * ledger's id is refused, named (`LedgerSquatted`).
 */
export async function createLedger(
  client: Client,
  id: string,
  limits: LedgerLimits,
  options: LedgerStartOptions & { force?: boolean; actor?: string },
): Promise<LedgerStatus> {
  const { force, actor, operators, ...start } = options;
  // Checked here too, so a bad list is refused before a ledger starts rather than failing its workflow.
  if (operators !== undefined) parseLedgerRequest(LedgerOperatorsSchema, operators, `ledger ${id}: operators`);
  const request = { limits, ...(force ? { force } : {}), ...(actor ? { actor } : {}), ...(operators && { operators }) };
  await refuseSquatter(client, id);
  return updateLedgerWithStart(client, id, lm.ledgerConfigureUpdate, request, limits, { ...start, operators });
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

/** How long a command reading a run waits for its ledger's status (a ledger no worker serves never answers). */
export const LEDGER_GLANCE_MS = 3_000;

/** The ledger's status within `LEDGER_GLANCE_MS`, else the query's failure: for what only adds to another answer. */
export async function ledgerStatusGlance(client: Client, id: string): Promise<LedgerStatus> {
  return client.withDeadline(Date.now() + LEDGER_GLANCE_MS, () => ledgerStatus(client, id));
}

/** Sends `abortRun` to every run registered with the ledger; `actor` must be one of its operators when it has any. */
export async function abortAllLedger(client: Client, id: string, request: { reason?: string; actor?: string } = {}) {
  return updateLedger(client, id, lm.ledgerAbortAllUpdate, request);
}
