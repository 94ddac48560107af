/** A `team` task's child run id (docs/teams.md): alone here so the task views can name it without the run's rules. */

/** The child's workflow id: the parent's, the task key and the fencing token (one child per attempt). */
export function childWorkflowId(parentWorkflowId: string, key: string, fencingToken: number): string {
  return `${parentWorkflowId}/${key}#${fencingToken}`;
}
