/**
 * `tightenBudget`: an operator lowers a running run's limits. Limits only tighten: a raised limit is refused
 * (`loosening_refused`, naming it). A new limit that leaves nothing for another attempt stops the run at once with
 * that limit's reason, as reaching it would (the wall clock's stops the attempts in flight too).
 */
import type { TightenBudgetVerdict } from '../contract';
import { TeamControlError, TightenBudgetRequestSchema, parseControl } from '../plan/requests/control';
import type { TightenBudgetRequest } from '../plan/requests/control';
import type { RunContext } from './context';
import { checkActor } from './governance';

export function validateTightenBudget(run: RunContext, payload: unknown): TightenBudgetRequest {
  const request = parseControl(TightenBudgetRequestSchema, payload ?? {}, 'tightenBudget');
  checkActor(run.plan, request.actor, 'tightenBudget');
  const loosened = run.budget.loosenings(request);
  if (loosened.length) {
    throw new TeamControlError(
      'loosening_refused',
      `tightenBudget: ${loosened.join(', ')} would loosen the budget; limits only tighten`,
      loosened[0].split(' ')[0],
    );
  }
  return request;
}

export function tightenBudget(run: RunContext, payload: unknown, now: number): TightenBudgetVerdict {
  const request = validateTightenBudget(run, payload);
  const { requestId, actor, ...limits } = request;
  const stop = run.budget.tighten(limits, Math.max(0, now - run.startedAt));
  run.events.record('budget:tightened', now, { limits, requestId: requestId ?? null, actor: actor ?? null });
  if (stop === 'max-wall-ms') run.wallExpired(now);
  else if (stop) run.stopForBudget(stop, now);
  run.touch();
  return { ok: true, budget: run.budget.view(now, run.startedAt) };
}
