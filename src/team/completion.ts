import { isPlainObject } from './foreign-activity';
import type { AttemptOutcome } from './types';

/**
 * A `runTask` result as the run settles it. Whatever came back counts as a completion: a worker's result is an
 * object, but whoever completes the activity by its ids may send anything (null, a string, an object with its own
 * `kind`), and none of it may stop the run's workflow task or pass for another outcome.
 */
export function completedOutcome(result: unknown): AttemptOutcome {
  return { ...(isPlainObject(result) ? result : {}), kind: 'completed' } as AttemptOutcome;
}
