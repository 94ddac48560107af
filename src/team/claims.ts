/**
 * Claiming: which ready tasks start now (a free teammate, dependencies met, scope free, budget
 * reserved), each leased with a new fencing token, and the claim the workflow turns into an
 * activity. Stops the run when nothing fits and nothing in flight can free a reservation.
 */
import { TEAM_ON_LEDGER } from './child-team';
import type { ReserveResult } from './budget';
import type { RunContext } from './context';
import { requestApprovals } from './decisions';
import { heartbeatEveryMs } from '../plan/lease-pace';
import { scopesOverlap } from './scheduling';
import { upfrontOf, type Amount } from '../plan/budget-fit';
import { childTasksRefusal, countsTurns } from './tree-limits';
import { wantTasks } from './child-budget';
import type { Claim, Grant, Reservation } from './types';

/** Leases every task that may start now: free teammate, dependencies met, scope free, budget reserved. */
export function claim(run: RunContext, now: number): Claim[] {
  // What a child asks its parent for is this step's want alone: a stopped run wants nothing.
  run.taskAsk.wanted = 0;
  if (!run.acceptingWork) return [];
  // The workflow's timer may fire a little after the deadline; nothing new starts meanwhile.
  if (run.pastWallDeadline(now)) {
    run.wallExpired(now);
    return [];
  }
  requestApprovals(run, now);
  const claims: Claim[] = [];
  let refusal: ReserveResult | null = null;
  // Once maxTasks refuses one, it refuses every other: they wait for the same reason, nothing more is reserved.
  let tasksSpent: string | null = null;
  // The ready tasks maxTasks refuses, and the attempts they need (a team task two): what a child asks its parent for.
  const short: number[] = [];
  let wanted = 0;
  const refusedByTasks = (i: number, waiting: string) => {
    run.graph.noteWaiting(i, waiting);
    short.push(i);
    wanted += run.spec(i).executor.kind === 'team' ? 2 : 1;
  };
  run.graph.clearWaiting();
  for (const i of run.graph.ready.inOrder()) {
    // `lease` adds each claim to the leases at once, so their size already counts this call's claims: once no
    // teammate is free, none is for the rest of the step.
    const free = run.plan.teammates - run.leases.size;
    if (free <= 0) break;
    if (tasksSpent !== null) {
      refusedByTasks(i, tasksSpent);
      continue;
    }
    if (run.graph.tasks[i].readyAt > now || scopeBusy(run, i)) continue;
    // A team task needs an attempt of maxTasks for its child beside its own (team/tree-limits.ts).
    const noRoom = childTasksRefusal(run, i);
    if (noRoom) {
      refusal = { ok: false, reason: 'max-tasks' };
      refusedByTasks(i, noRoom);
      continue;
    }
    const estimate = estimateOf(run, i);
    const reserved = run.budget.reserve(estimate, free);
    if (!reserved.ok) {
      refusal = reserved;
      const waiting = waitingFor(run, estimate, free);
      if (reserved.reason === 'max-tasks') {
        tasksSpent = waiting;
        refusedByTasks(i, waiting);
      } else run.graph.noteWaiting(i, waiting);
      continue;
    }
    claims.push(lease(run, i, reserved.reservation, now));
  }
  for (const c of claims) run.graph.ready.remove(run.graph.indexOf(c.key)!);
  if (claims.length) run.touch();
  // A child whose share of maxTasks is spent asks its parent for more (at most a free teammate each) before it stops.
  const asking =
    refusal !== null &&
    !refusal.ok &&
    refusal.reason === 'max-tasks' &&
    wantTasks(run, Math.min(wanted, Math.max(1, run.plan.teammates - run.leases.size)));
  if (asking) for (const i of short) run.graph.noteWaiting(i, `${run.graph.tasks[i].waiting}; asking the parent`);
  // Nothing fits and nothing in flight will free a reservation: stop, unless a task waiting out
  // its retry backoff may still fit (it is tried when its backoff is over).
  if (
    refusal &&
    !refusal.ok &&
    !asking &&
    run.leases.size === 0 &&
    (refusal.reason === 'max-tasks' || !run.graph.backingOff(now))
  ) {
    run.stopForBudget(refusal.reason, now);
  }
  return claims;
}

/** Runs recorded before agents started with their first call's grant reserved a fair share for them. */
export const FIRST_CALL_GRANT = 'teamrun-first-call-grant';

/** What task `i` reserves (plan/budget-fit.ts has the rule), else a fair share. */
function estimateOf(run: RunContext, i: number): Amount | undefined {
  const upfront = upfrontOf(run.spec(i));
  // Asked only for an agent, as before the rule moved: `patched` records a marker where it is first asked.
  if (!upfront || (upfront.source === 'agent' && !run.patched(FIRST_CALL_GRANT))) return undefined;
  return upfront.amount;
}

/** "waiting for budget: needs X, Y free, Z reserved by <keys>" for a task whose reservation did not fit. */
export function waitingFor(run: RunContext, estimate: { tokens?: number; usd?: number } | undefined, free: number) {
  const short = run.budget.shortOf(estimate, free);
  if (!short) return 'waiting for budget';
  if (short.reason === 'max-tasks') {
    const held = run.budget.tasksHeld;
    const children = held ? ` (${held} held by running child teams)` : '';
    return `waiting for budget: maxTasks ${run.budget.limits.maxTasks} reached${children}`;
  }
  const usd = short.reason === 'max-usd';
  const amount = (r: { tokens: number; usd: number }) =>
    usd ? `$${Math.round(r.usd * 1e6) / 1e6}` : `${String(r.tokens).replace(/\B(?=(\d{3})+$)/g, ',')} tokens`;
  const holders: string[] = [];
  for (const key of run.leases.keys()) {
    const held = run.leases.get(key)!.reservation;
    if ((usd ? held.usd : held.tokens) > 0) holders.push(`${key} (${amount(held)})`);
  }
  const shown = holders.slice(0, 5).join(', ') + (holders.length > 5 ? ` and ${holders.length - 5} more` : '');
  const left = { tokens: Math.max(0, short.free.tokens), usd: Math.max(0, short.free.usd) };
  return (
    `waiting for budget: needs ${amount(short.needs)}, ${amount(left)} free, ` +
    `${amount(run.budget.reservedNow)} reserved by ${shown || 'no running attempt'}`
  );
}

/**
 * `task:scope-released`: task `i`'s attempt `fencingToken` ended (`why`: how its lease ended), and with it the
 * scopes it held in the run. A run on a shared ledger records its ledger's release apart, once the ledger freed them.
 */
export function scopeReleased(run: RunContext, i: number, fencingToken: number, why: string, now: number): void {
  const scope = scopeOf(run, i);
  if (!scope.length) return;
  run.events.record('task:scope-released', now, { key: run.graph.tasks[i].key, fencingToken, scope: [...scope], why });
}

function scopeBusy(run: RunContext, i: number): boolean {
  const scope = scopeOf(run, i);
  if (scope.length === 0) return false;
  for (const key of run.leases.keys()) {
    if (scopesOverlap(scope, scopeOf(run, run.graph.indexOf(key)!))) return true;
  }
  return false;
}

/** A task's own scope, or the plan's `defaultScope` when it names none (added tasks too). */
function scopeOf(run: RunContext, i: number): ReadonlyArray<string> {
  const own = run.spec(i).scope;
  return own.length ? own : (run.plan.defaultScope ?? []);
}

function lease(run: RunContext, i: number, reservation: Reservation, now: number): Claim {
  const task = run.graph.tasks[i];
  const spec = run.spec(i);
  const attempt = run.leases.open(task, run.workflowId, reservation, now);
  const { fencingToken } = attempt;
  task.startedAt ??= now;
  run.graph.setStatus(task, 'leased');
  run.executions += 1;
  run.maxConcurrent = Math.max(run.maxConcurrent, run.leases.size);
  const identity = { holder: attempt.holder, leaseId: attempt.leaseId, fencingToken };
  if (task.previousLease) {
    run.events.record('lease:changed', now, { key: task.key, previous: task.previousLease, next: identity });
    task.previousLease = null;
  }
  run.events.record('task:claimed', now, { key: task.key, attempt: attempt.attempt, ...identity, reservation });
  const scope = scopeOf(run, i);
  if (scope.length) run.events.record('task:scope-acquired', now, { key: task.key, fencingToken, scope: [...scope] });
  run.clock = now;
  run.members.started(attempt.holder, task.key, now);
  const inbox = run.mailbox.deliver(task.key, attempt.holder, false);
  return {
    key: task.key,
    title: spec.title ?? task.key,
    attempt: attempt.attempt,
    fencingToken,
    leaseId: attempt.leaseId,
    holder: attempt.holder,
    activityId: attempt.activityId,
    ...leaseTimes(run, i),
    executor: spec.executor,
    dependencyOutputs: run.graph.dependencyOutputs(i),
    estimate: { tokens: spec.estimate?.tokens ?? 0, usd: spec.estimate?.usd ?? 0 },
    grant: grantOf(run, reservation, spec.executor.kind === 'team'),
    ...(inbox.length ? { inbox } : {}),
    ...(spec.allowSpawn ? { allowSpawn: true as const } : {}),
    // Absent unless set: an attempt's input (and its history) is as before for a task without one.
    ...(spec.outputSchema ? { outputSchema: spec.outputSchema } : {}),
    ...stallOf(spec.stallAfterMs ?? run.plan.stallAfterMs),
    ...(scope.length ? { scope: [...scope] } : {}),
  };
}

/** Absent unless set: an attempt's input (and its history) is as before for a task without a stall watch. */
function stallOf(stallAfterMs: number | undefined): { stallAfterMs?: number } {
  return stallAfterMs === undefined ? {} : { stallAfterMs };
}

/** The lease TTL and heartbeat pace of task `i`'s attempts: its own lease, or the plan's. */
export function leaseTimes(run: RunContext, i: number): { ttlMs: number; heartbeatEveryMs: number } {
  const spec = run.spec(i);
  return {
    ttlMs: spec.lease?.ttlMs ?? run.plan.lease.ttlMs,
    heartbeatEveryMs: heartbeatEveryMs(spec.lease ?? run.plan.lease),
  };
}

/** What the attempt's worker counts usage against: a dimension no limit applies to is not counted. */
function grantOf(run: RunContext, reservation: Reservation, team: boolean): Grant {
  // The budget's limits, not the plan's: tightenBudget may have set one the plan did not.
  const { maxTokens, maxUsd } = run.budget.limits;
  const { ledger } = run.plan.budget;
  // A shared ledger's limits are its own: the run counts both dimensions and lets the ledger answer. A child team
  // runs on the ledger itself (its attempts take its slots), so its carve is the run's own limits only.
  const shared = ledger !== undefined && !(team && run.patched(TEAM_ON_LEDGER));
  return {
    tokens: maxTokens !== undefined || shared ? reservation.tokens : null,
    usd: maxUsd !== undefined || shared ? reservation.usd : null,
    ...(maxUsd !== undefined ? { pricesRequired: true } : {}),
    ...(countsTurns(run) ? { turns: true as const } : {}),
  };
}
