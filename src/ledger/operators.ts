/**
 * Who may do what only an operator should on a shared ledger: force a loosening, resolve lost attempts, abort
 * every run, change the operator list. A ledger created with `operators` admits these only from an actor on the
 * list; one without trusts any actor (names are self-asserted, as a run's `governance.operators` are: the list
 * guards against mistakes and casual misuse by anyone with update rights, not against a forged name). Pure;
 * rules.ts calls it and the workflow's validators turn a refusal into its failure type.
 */
import type { ConfigureRequest, LedgerLimits } from '../plan/requests/ledger';
import { loosenings } from './limits';

/** A refused operator's call: its failure type and what was wrong. */
export interface OperatorRefusal {
  /** The failure types messages.ts names (LOOSENING_REFUSED, FORBIDDEN), spelled here: it imports this module. */
  code: 'loosening_refused' | 'forbidden';
  message: string;
}

/** `forbidden` when the ledger has operators and `actor` is not one of them; null when it may `what`. */
export function operatorRefusal(
  ledgerId: string,
  operators: readonly string[] | undefined,
  actor: string | undefined,
  what: string,
): OperatorRefusal | null {
  if (!operators || (actor !== undefined && operators.includes(actor))) return null;
  return {
    code: 'forbidden',
    message:
      `ledger ${ledgerId}: actor "${actor ?? ''}" is not one of the ledger's operators; ` +
      `only an operator may ${what}`,
  };
}

/** The calls beside `configure` that only an operator may make, as a refusal names them. */
const OPERATOR_CALLS = { resolve: 'resolve lost attempts', abortAll: 'abort every run' } as const;
export type OperatorCall = keyof typeof OPERATOR_CALLS;

/** `forbidden` when the ledger has operators and `actor`, making `call`, is not one of them. */
export function callRefusal(
  ledgerId: string,
  operators: readonly string[] | undefined,
  actor: string | undefined,
  call: OperatorCall,
): OperatorRefusal | null {
  return operatorRefusal(ledgerId, operators, actor, OPERATOR_CALLS[call]);
}

/** The same names, in any order. */
export function sameOperators(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (!a || !b) return a === b;
  return a.length === b.length && a.every((name) => b.includes(name));
}

/**
 * Why `configure` may not apply: limits that loosen without `force` and an actor (`loosening_refused`); a forced
 * loosening, or a new operator list, from an actor not on the ledger's list (`forbidden`). Null when it may.
 */
export function configureRefusal(
  ledgerId: string,
  limits: LedgerLimits,
  operators: readonly string[] | undefined,
  request: ConfigureRequest,
): OperatorRefusal | null {
  const loosened = loosenings(limits, request.limits);
  if (loosened.length && !(request.force && request.actor)) {
    const how = request.force ? 'force needs the actor who forces it' : 'only an operator may loosen, with force';
    return {
      code: 'loosening_refused',
      message: `ledger ${ledgerId}: the new limits loosen ${loosened.join(', ')}; limits only tighten (${how})`,
    };
  }
  if (loosened.length) {
    const refusal = operatorRefusal(ledgerId, operators, request.actor, `loosen its limits (${loosened.join(', ')})`);
    if (refusal) return refusal;
  }
  // A ledger created without operators keeps none: the first caller to name a list would take it.
  if (request.operators && !operators) {
    return {
      code: 'forbidden',
      message:
        `ledger ${ledgerId} was created without operators, and a running ledger takes none later (whoever named ` +
        'them first would own it): name them when the ledger is created (`teamrun ledger create --operators`)',
    };
  }
  if (request.operators && operators && !sameOperators(operators, request.operators)) {
    return operatorRefusal(ledgerId, operators, request.actor, 'change its operators');
  }
  return null;
}
