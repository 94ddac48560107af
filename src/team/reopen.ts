/**
 * `reopenTask`: a person sends a settled task (succeeded, failed or skipped) back to adjudication, with the
 * reason and who asked, when something about it turns out wrong after the fact. Its dependents that already ran
 * are named in the record and the answer, and left as they are: only a person decides whether they run again.
 * The decision on the reopened task is an ordinary `adjudicate` (decisions.ts): retry runs it again with a new
 * fencing token, accept keeps (or sets) its result, reject fails it and skips its dependents that had not run.
 */
import type { ReopenTaskVerdict } from '../contract';
import {
  ReopenTaskRequestSchema,
  TeamControlError,
  parseControl,
  type ReopenTaskRequest,
} from '../plan/requests/control';
import type { RunContext } from './context';
import { checkActor } from './governance';

/** Rule change: runs recorded before `reopenTask` never apply one (no such update reached them). */
export const REOPEN_TASK = 'teamrun-reopen-task';
export const REOPENED_CODE = 'TEAM_TASK_REOPENED';
const REOPENABLE = ['succeeded', 'failed', 'skipped'];

/** The decision log's key of a reopen request (one log keeps adjudicate's decision ids and these). */
const logId = (requestId: string) => `reopen:${requestId}`;

/** Every check of a `reopenTask` request, in order: shape, who asks, repeat, task, run; throws `TeamControlError`. */
export function validateReopen(run: RunContext, payload: unknown): ReopenTaskRequest {
  const request = parseControl(ReopenTaskRequestSchema, payload, 'reopenTask');
  checkActor(run.plan, request.actor, 'reopenTask');
  if (run.adjudications.isDecided(logId(request.requestId))) return request;
  const i = run.graph.indexOf(request.key);
  if (i === undefined) throw new TeamControlError('not_found', `reopenTask: no task "${request.key}"`);
  if (run.closed !== null || run.abort) {
    throw new TeamControlError(
      'run_closed',
      `reopenTask: the run ${run.abort ? 'was aborted' : 'is closing'}; a closed run cannot be reopened: start a ` +
        `new run with the task (teamrun start), or rerun the plan`,
    );
  }
  const task = run.graph.tasks[i];
  if (!REOPENABLE.includes(task.status)) {
    throw new TeamControlError(
      'not_reopenable',
      `reopenTask: task "${request.key}" is ${task.status}; only a succeeded, failed or skipped task is reopened ` +
        `(one running is interrupted, one in adjudication is decided)`,
    );
  }
  const notDone = run
    .spec(i)
    .dependsOn.filter((dep) => run.graph.tasks[run.graph.indexOf(dep)!]?.status !== 'succeeded');
  if (task.status === 'skipped' && notDone.length) {
    throw new TeamControlError(
      'not_reopenable',
      `reopenTask: task "${request.key}" was skipped and its dependencies ${notDone.map((d) => `"${d}"`).join(', ')} ` +
        `did not succeed: reopen those first`,
    );
  }
  return request;
}

/** Applies a reopen once per `requestId`; a repeat answers `idempotent` with the task as it is now. */
export function reopenTask(run: RunContext, payload: unknown, now?: number): ReopenTaskVerdict {
  const request = validateReopen(run, payload);
  const repeat = run.adjudications.isDecided(logId(request.requestId));
  if (now === undefined || repeat) {
    const i = run.graph.indexOf(repeat ? run.adjudications.decidedKey(logId(request.requestId)) : request.key)!;
    const record = run.adjudications.records.find((r) => r.code === REOPENED_CODE && r.requestId === request.requestId);
    return {
      ok: true,
      ...(repeat ? { idempotent: true as const } : {}),
      task: run.graph.view(i),
      dependents: record?.dependents ?? [],
    };
  }
  if (!run.patched(REOPEN_TASK)) throw new TeamControlError('invalid_request', 'reopenTask: not in this run');
  const i = run.graph.indexOf(request.key)!;
  const task = run.graph.tasks[i];
  const was = task.status;
  const dependents = run.graph.reopen(i);
  const by = request.actor ?? 'an operator';
  const ran = dependents.length ? `; dependents that already ran: ${dependents.join(', ')}` : '';
  run.toAdjudication(
    i,
    REOPENED_CODE,
    {
      holder: task.holder ?? 'reopen',
      leaseId: `${run.workflowId}/${task.key}/${task.fencingToken}`,
      fencingToken: task.fencingToken,
    },
    now,
    {
      reason: `reopened by ${by} (was ${was}): ${request.reason}${ran}`,
      requestId: request.requestId,
      actor: request.actor ?? null,
      result: was === 'succeeded' ? (task.output ?? null) : null,
      dependents,
    },
  );
  run.events.record('task:reopened', now, {
    key: task.key,
    actor: request.actor ?? null,
    reason: request.reason,
    requestId: request.requestId,
    was,
    dependents,
  });
  run.adjudications.remember(logId(request.requestId), task.key);
  run.touch();
  return { ok: true, task: run.graph.view(i), dependents };
}
