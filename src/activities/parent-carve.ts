/** A child team run's ask to its parent (`extendChildCarve`), sent as an update by the child's worker. */
import { ApplicationFailure, WorkflowNotFoundError } from '@temporalio/common';
import { WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { EXTEND_CHILD_CARVE, type ChildBudgetActivities, type ChildCarveGrant } from '../plan/requests/child-carve';

export function createChildBudgetActivities(deps: { client: Client }): ChildBudgetActivities {
  return {
    async extendParentCarve({ parentWorkflowId, updateId, request }) {
      const parent = deps.client.workflow.getHandle(parentWorkflowId);
      try {
        const granted = await parent.executeUpdate<ChildCarveGrant, [typeof request]>(EXTEND_CHILD_CARVE, {
          args: [request],
          updateId,
        });
        return { ok: true, granted };
      } catch (err) {
        // The parent's refusal (its validator's or its rule's) is an answer; anything else is asked again.
        const cause = err instanceof WorkflowUpdateFailedError ? err.cause : undefined;
        if (cause instanceof ApplicationFailure)
          return { ok: false, code: cause.type ?? 'refused', message: cause.message.slice(0, 2_000) };
        if (err instanceof WorkflowNotFoundError)
          return { ok: false, code: 'parent_gone', message: `the parent run ${parentWorkflowId} is not running` };
        throw err;
      }
    },
  };
}
