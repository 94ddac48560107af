/**
 * A coordinator's runs (docs/teams.md): a team run an attempt started through its worker's gateway (`start_run` of
 * `teamrun mcp`, or `teamrun start`, inside the task) is linked to that attempt with `linkRun`, taken only with the
 * worker's proof that the attempt sent it, never from a person naming a workflow id. When the attempt ends, however it
 * ends (succeeded, failed, interrupted, aborted, lease lost), each linked run is sent an abort naming the coordinator
 * task; the workflow sends them (src/workflows/coordinated.ts).
 */
import type { LinkRunVerdict } from '../contract';
import { callerOf } from '../plan/requests/caller';
import { MESSAGE_LIMITS, TeamControlError, parseControl } from '../plan/requests/control';
import { LinkRunSchema, MAX_LINKED_RUNS, type LinkRunRequest } from '../plan/requests/link';
import type { RunContext } from './context';
import type { Attempt, AttemptOutcome } from './types';

const MESSAGE = 'linkRun';
/** The code a linked run is aborted with when its coordinator's attempt ends. */
export const COORDINATOR_ENDED = 'TEAM_COORDINATOR_ENDED';
/** Runs whose history began before linked runs never send their aborts (replay stays deterministic). */
export const LINKED_RUNS_PATCH = 'teamrun-linked-runs';

/** Every check, for the update's validator: a refused link never reaches history. Throws `TeamControlError`. */
export function validateLinkRun(run: RunContext, payload: unknown): LinkRunRequest {
  return check(run, payload).request;
}

export function linkRun(run: RunContext, payload: unknown, now: number): LinkRunVerdict {
  const { request, attempt } = check(run, payload);
  const links = (attempt.linkedRuns ??= []);
  if (links.some((l) => l.runId === request.runId)) return { ok: true, linked: links.length, idempotent: true };
  links.push({ runId: request.runId, actor: request.actor ?? null });
  run.events.record('task:run-linked', now, {
    key: request.key,
    fencingToken: attempt.fencingToken,
    runId: request.runId,
    linked: links.length,
  });
  run.touch();
  return { ok: true, linked: links.length };
}

/** The attempt ended (settlement closed its lease): its linked runs are queued for their abort. */
export function linksEnded(run: RunContext, key: string, attempt: Attempt, outcome: AttemptOutcome['kind']): void {
  if (!attempt.linkedRuns?.length) return;
  const why = endOf(run, attempt, outcome);
  const { fencingToken } = attempt;
  const reason = `the coordinator task "${key}" (fencing token ${fencingToken}) of run ${run.workflowId} ${why}`;
  run.leases.linkEnded({
    runs: attempt.linkedRuns,
    abort: {
      code: COORDINATOR_ENDED,
      reason: reason.slice(0, MESSAGE_LIMITS.reasonChars),
      requestId: `coordinator-ended:${attempt.leaseId}`.slice(0, MESSAGE_LIMITS.idChars),
      requireAdjudication: false,
    },
  });
}

function endOf(run: RunContext, attempt: Attempt, outcome: AttemptOutcome['kind']): string {
  const stop = attempt.stop;
  if (stop?.kind === 'interrupt') {
    const { actor, reason } = stop.interruption;
    return `was interrupted${actor ? ` by ${actor}` : ''}${reason ? `: ${reason}` : ''}`;
  }
  if (stop?.kind === 'abort') return `ended with its run aborted${run.abort?.reason ? `: ${run.abort.reason}` : ''}`;
  if (stop?.kind === 'wall') return 'ended with its run out of wall clock';
  const ends: Record<AttemptOutcome['kind'], string> = {
    completed: 'succeeded',
    failed: 'failed',
    'lease-lost': 'lost its lease',
    cancelled: 'was cancelled',
    released: 'was released by its worker',
    'not-started': 'never started',
  };
  return ends[outcome] ?? 'ended';
}

function check(run: RunContext, payload: unknown): { request: LinkRunRequest; attempt: Attempt } {
  const caller = callerOf(payload, MESSAGE);
  const request = parseControl(LinkRunSchema, caller.request, MESSAGE);
  // Only the attempt's worker speaks for it here: no operator links a run to someone's task.
  if (!caller.attempt)
    throw new TeamControlError(
      'forbidden',
      `${MESSAGE}: only the worker of a running attempt links a run to it (its proof), never a fencing token alone`,
    );
  if (run.graph.indexOf(request.key) === undefined)
    throw new TeamControlError('not_found', `${MESSAGE}: no task "${request.key}"`);
  const attempt = run.leases.get(request.key);
  if (!attempt || attempt.fencingToken !== request.fencingToken || attempt.stop) {
    throw new TeamControlError(
      'stale_attempt',
      `${MESSAGE}: "${request.key}" has no live attempt with fencing token ${request.fencingToken}` +
        (attempt ? ` (the live one is ${attempt.fencingToken}${attempt.stop ? ', stopped' : ''})` : ''),
    );
  }
  const links = attempt.linkedRuns ?? [];
  if (links.length >= MAX_LINKED_RUNS && !links.some((l) => l.runId === request.runId))
    throw new TeamControlError(
      'too_many_runs',
      `${MESSAGE}: the attempt of "${request.key}" has linked ${links.length} runs, the most one attempt may`,
    );
  return { request, attempt };
}
