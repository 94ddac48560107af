/**
 * `tightenBudget`: an operator lowers a running run's limits. Limits only tighten: a raised limit is refused
 * (`loosening_refused`, naming it). A new limit that leaves nothing for another attempt stops the run at once with
 * that limit's reason, as reaching it would (the wall clock's stops the attempts in flight too).
 */
import type { TightenBudgetVerdict } from '../contract';
import type { TightenBudgetRequest } from '../plan/requests/control';
import type { RunContext } from './context';
export declare function validateTightenBudget(run: RunContext, payload: unknown): TightenBudgetRequest;
export declare function tightenBudget(run: RunContext, payload: unknown, now: number): TightenBudgetVerdict;
