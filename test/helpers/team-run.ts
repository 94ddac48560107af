/** What unit tests read of a `TeamRun`, read the way the workflow and its clients read it. */
import type { TaskView } from '../../src/contract';
import { MAX_TASKS_PAGE, type TeamRun } from '../../src/team/run';

/**
 * Every task view of a run, read as a client reads a large run: the `tasks` query's pages
 * (`tasksPage`, at most MAX_TASKS_PAGE each), one after another until a short page.
 */
export function allTasks(run: TeamRun): TaskView[] {
  const tasks: TaskView[] = [];
  for (;;) {
    const page = run.tasksPage({ offset: tasks.length, limit: MAX_TASKS_PAGE });
    tasks.push(...page);
    if (page.length < MAX_TASKS_PAGE) return tasks;
  }
}

/**
 * When the workflow, waiting after a step at `now`, wakes by itself (a retry backoff ending, an
 * approval timing out, the adjudication wait giving up): `beginWait`'s timeout as a time. Null
 * when it waits for a change only. Like the workflow's wait, it starts the adjudication wait's clock.
 */
export function wakesAt(run: TeamRun, now: number): number | null {
  const { timeoutMs } = run.beginWait(now, false);
  return timeoutMs === null ? null : now + timeoutMs;
}
