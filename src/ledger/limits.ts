/**
 * Limits only tighten: which changes of a ledger's limits loosen it. A limit loosens when it is raised or
 * removed; a window loosens when it is added or shortened (usage then resets sooner).
 */
import type { LedgerLimits } from '../plan/requests/ledger';
import type { BudgetReason } from '../team/types';

const SPEND_LIMITS = [
  'maxConcurrent',
  'maxTokens',
  'maxUsd',
  'maxSpawnedTasks',
  'maxTurns',
  'maxDepth',
  'maxWallMs',
] as const;

/** Each loosening from `from` to `to`, as `maxUsd 5 -> 10` (`none` where a limit is absent); empty when none. */
export function loosenings(from: LedgerLimits, to: LedgerLimits): string[] {
  const shown = (n: number | undefined) => (n === undefined ? 'none' : String(n));
  const found: string[] = [];
  for (const name of SPEND_LIMITS) {
    const was = from[name];
    const now = to[name];
    if (was !== undefined && (now === undefined || now > was)) found.push(`${name} ${shown(was)} -> ${shown(now)}`);
  }
  const window = (ms: number | undefined) => (ms === undefined ? 'never' : `${ms} ms`);
  if (to.windowMs !== undefined && (from.windowMs === undefined || to.windowMs < from.windowMs)) {
    found.push(`windowMs ${window(from.windowMs)} -> ${window(to.windowMs)}`);
  }
  return found;
}

/** The budget reason a run stops with when its ledger refuses an attempt for good (null: not a limit). */
export function ledgerBudgetReason(reason: string): BudgetReason | null {
  if (reason === 'max-tokens') return 'ledger-max-tokens';
  if (reason === 'max-usd') return 'ledger-max-usd';
  if (reason === 'unpriced-usage') return 'unpriced-usage';
  if (reason === 'max-turns') return 'max-turns';
  return null;
}
