/** What unit tests read of a `TeamRun`, read the way the workflow and its clients read it. */
import type { TaskView } from '../../src/contract';
import type { TeamPlanInput } from '../../src/plan/schema';
import { formatProblems, validatePlan } from '../../src/plan/validate';
import { TeamControlError } from '../../src/plan/requests/control';
import { MAX_TASKS_PAGE, TeamRun } from '../../src/team/run';

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

type TaskInput = TeamPlanInput['tasks'][number];

/** A task of a unit plan: a `noop` unless `extra` says otherwise. */
export const task = (key: string, extra: Partial<TaskInput> = {}): TaskInput => ({
  key,
  executor: { kind: 'noop' },
  ...extra,
});

/** A run of `tasks` started at time 0 (8 teammates unless `extra` says otherwise); an invalid plan throws. */
export function runOf(tasks: TaskInput[], extra: Partial<TeamPlanInput> = {}): TeamRun {
  const validation = validatePlan({ name: 'unit', teammates: 8, ...extra, tasks });
  if (!validation.ok) throw new Error(formatProblems(validation.problems));
  return TeamRun.start(validation.plan, 'wf-unit', 0);
}

/** The code a rule refused with (`TeamControlError`), or "accepted". */
export function codeOf(fn: () => unknown): string {
  try {
    fn();
    return 'accepted';
  } catch (err) {
    if (err instanceof TeamControlError) return err.code;
    throw err;
  }
}
