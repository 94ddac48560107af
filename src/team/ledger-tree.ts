/**
 * What a run's shared ledger lets it work within (src/ledger/tree.ts), as its registration answers it: the tasks it
 * may add in all (its share of the ledger's `maxSpawnedTasks`), how deep (`maxDepth`), how long (`maxWallMs`, which
 * tightens the run's own), and whether each agent model call is asked of the ledger too (`maxTurns`). Pure.
 */
import type { LedgerTreeGrant } from '../contract';
import { PLAN_LIMITS } from '../plan/limits';
import type { RunContext } from './context';
import type { SpawnLimit } from './spawn';

/** What the run asks to hold of its ledger's `maxSpawnedTasks`: its plan's own limit, else every task it may add. */
export function spawnAsk(run: RunContext): number {
  const { maxSpawnedTasks, tree } = run.plan.budget;
  return Math.min(maxSpawnedTasks ?? PLAN_LIMITS.maxTasks, tree?.maxSpawnedTasks ?? PLAN_LIMITS.maxTasks);
}

/**
 * Takes the ledger's answer: the share and depth bound the run's additions from now, and a `maxWallMs` below the
 * run's own becomes its own (the run stops `max-wall-ms` at once when it is past it already).
 */
export function applyLedgerTree(run: RunContext, ledgerId: string, grant: LedgerTreeGrant | null, now: number): void {
  run.ledgerTree = grant;
  if (!grant) return;
  const own = run.budget.limits.maxWallMs;
  const wall = grant.maxWallMs !== null && (own === undefined || grant.maxWallMs < own) ? grant.maxWallMs : null;
  if (grant.spawns !== null || grant.maxDepth !== null || wall !== null || grant.turns) {
    run.events.record('ledger:limits', now, { ledger: ledgerId, ...grant });
  }
  if (wall === null) return;
  const stop = run.budget.tighten({ maxWallMs: wall }, Math.max(0, now - run.startedAt));
  if (stop === 'max-wall-ms') run.wallExpired(now);
  run.touch();
}

/** Whether each agent model call is asked of the ledger too: its registration said its `maxTurns` counts them. */
export function ledgerCountsTurns(run: RunContext): boolean {
  const grant = run.ledgerTree;
  return typeof grant === 'object' && grant !== null && grant.turns;
}

/**
 * What the shared ledger is asked when the run granted an extension: its tokens and dollars, and the model calls
 * where the ledger's `maxTurns` counts them; null when there is nothing to ask (model calls only, uncounted).
 */
export function ledgerAskOf(
  run: RunContext,
  request: { tokens?: number; usd?: number; turns?: number },
): { extension: { tokens: number; usd: number }; turns: number | undefined } | null {
  const extension = { tokens: request.tokens ?? 0, usd: request.usd ?? 0 };
  const turns = request.turns && ledgerCountsTurns(run) ? request.turns : undefined;
  // An ask for model calls only (`turns`, which no older history carries) has nothing else for the ledger to extend.
  if (!turns && request.turns && extension.tokens === 0 && extension.usd === 0) return null;
  return { extension, turns };
}

/** The ledger limit `count` new tasks at `depth` would pass, with the reason a person reads; null when they fit. */
export function ledgerSpawnRefusal(
  run: RunContext,
  count: number,
  depth: number,
): { limit: SpawnLimit; message: string } | null {
  const grant = run.ledgerTree;
  const ledger = `ledger ${run.plan.budget.ledger ?? ''}`;
  // Until the ledger answered, an `addTasks` update waits for it (workflows/handlers.ts) and is checked again then;
  // nothing else adds before it (a run on a ledger carries no attempt into a new run).
  if (grant === 'registering' || !grant) return null;
  const added = run.spawns.count;
  if (grant.spawns !== null && added + count > grant.spawns) {
    return {
      limit: 'max-spawned-tasks',
      message:
        `adding ${count} task(s) to the ${added} already added would pass the run's share of ${ledger}'s ` +
        `maxSpawnedTasks (${grant.spawns})`,
    };
  }
  if (grant.maxDepth !== null && depth > grant.maxDepth) {
    return {
      limit: 'max-depth',
      message: `the new tasks would be at depth ${depth}, past ${ledger}'s maxDepth (${grant.maxDepth})`,
    };
  }
  return null;
}
