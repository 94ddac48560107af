/**
 * Who may steer a run: `governance.operators` names the actors allowed to send control
 * messages; the run's shared ledger may always abort it (a cascade abort). Reads the plan only.
 */
import type { TeamPlan } from '../plan/schema';
import { TeamControlError } from './control';
import { ledgerActor } from './ledger-requests';

/** Throws `forbidden` when governance names operators and `actor` is not one of them. */
export function checkActor(plan: TeamPlan, actor: string | undefined, message: string): void {
  const operators = plan.governance?.operators;
  const ledger = plan.budget.ledger;
  if (message === 'abortRun' && ledger !== undefined && actor === ledgerActor(ledger)) return;
  if (operators && !(actor && operators.includes(actor))) {
    throw new TeamControlError('forbidden', `${message}: actor "${actor ?? ''}" is not one of governance.operators`);
  }
}
