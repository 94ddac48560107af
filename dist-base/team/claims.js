"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.claim = claim;
exports.leaseTimes = leaseTimes;
const decisions_1 = require("./decisions");
const lease_pace_1 = require("../plan/lease-pace");
const scheduling_1 = require("./scheduling");
/** Leases every task that may start now: free teammate, dependencies met, scope free, budget reserved. */
function claim(run, now) {
    if (!run.acceptingWork)
        return [];
    // The workflow's timer may fire a little after the deadline; nothing new starts meanwhile.
    if (run.pastWallDeadline(now)) {
        run.wallExpired(now);
        return [];
    }
    (0, decisions_1.requestApprovals)(run, now);
    const claims = [];
    let refusal = null;
    for (const i of run.graph.ready.inOrder()) {
        // `lease` adds each claim to the leases at once, so their size already counts this call's claims.
        const free = run.plan.teammates - run.leases.size;
        if (free <= 0)
            break;
        if (run.graph.tasks[i].readyAt > now || scopeBusy(run, i))
            continue;
        const reserved = run.budget.reserve(run.spec(i).estimate, free);
        if (!reserved.ok) {
            refusal = reserved;
            if (reserved.reason === 'max-tasks')
                break;
            continue;
        }
        claims.push(lease(run, i, reserved.reservation, now));
    }
    for (const c of claims)
        run.graph.ready.remove(run.graph.indexOf(c.key));
    if (claims.length)
        run.touch();
    // Nothing fits and nothing in flight will free a reservation: stop, unless a task waiting out
    // its retry backoff may still fit (it is tried when its backoff is over).
    if (refusal &&
        !refusal.ok &&
        run.leases.size === 0 &&
        (refusal.reason === 'max-tasks' || !run.graph.backingOff(now))) {
        run.stopForBudget(refusal.reason, now);
    }
    return claims;
}
function scopeBusy(run, i) {
    const scope = scopeOf(run, i);
    if (scope.length === 0)
        return false;
    for (const key of run.leases.keys()) {
        if ((0, scheduling_1.scopesOverlap)(scope, scopeOf(run, run.graph.indexOf(key))))
            return true;
    }
    return false;
}
/** A task's own scope, or the plan's `defaultScope` when it names none (added tasks too). */
function scopeOf(run, i) {
    const own = run.spec(i).scope;
    return own.length ? own : (run.plan.defaultScope ?? []);
}
function lease(run, i, reservation, now) {
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
        grant: grantOf(run, reservation),
        ...(inbox.length ? { inbox } : {}),
        ...(spec.allowSpawn ? { allowSpawn: true } : {}),
    };
}
/** The lease TTL and heartbeat pace of task `i`'s attempts: its own lease, or the plan's. */
function leaseTimes(run, i) {
    const spec = run.spec(i);
    return {
        ttlMs: spec.lease?.ttlMs ?? run.plan.lease.ttlMs,
        heartbeatEveryMs: (0, lease_pace_1.heartbeatEveryMs)(spec.lease ?? run.plan.lease),
    };
}
/** What the attempt's worker counts usage against: a dimension no limit applies to is not counted. */
function grantOf(run, reservation) {
    // The budget's limits, not the plan's: tightenBudget may have set one the plan did not.
    const { maxTokens, maxUsd } = run.budget.limits;
    const { ledger } = run.plan.budget;
    // A shared ledger's limits are its own: the run counts both dimensions and lets the ledger answer.
    const shared = ledger !== undefined;
    return {
        tokens: maxTokens !== undefined || shared ? reservation.tokens : null,
        usd: maxUsd !== undefined || shared ? reservation.usd : null,
    };
}
