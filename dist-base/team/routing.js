"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.BUDGET_EXCEEDED_CODE = void 0;
exports.defaultStopReason = defaultStopReason;
exports.stopKind = stopKind;
exports.neverStarted = neverStarted;
exports.route = route;
/**
 * The rulebook of settlement: where an attempt's outcome sends its task, given how the run
 * stopped the attempt (if it did) and the task's policy, and what each stop says when nobody gave
 * a reason. Pure and total: no state, no time; test/unit/routing.test.ts is its table.
 * settlement.ts applies what it answers.
 */
const spawn_1 = require("./spawn");
const STOP_CODE = {
    interrupt: 'TEAM_TASK_HUMAN_INTERRUPTED',
    abort: 'TEAM_RUN_ABORTED_ADJUDICATION_REQUIRED',
    'abort-no-adjudication': 'TEAM_RUN_ABORTED_ADJUDICATION_REQUIRED',
    wall: 'TEAM_WALL_BUDGET_EXHAUSTED',
};
/**
 * What an adjudication of a stopped attempt gives as its reason when the stop came without one: each stop its own
 * (`by` is who asked, when known), so an interrupt never reads as the wall clock.
 */
const STOP_REASON = {
    interrupt: (by) => `interrupted by ${by ?? 'an operator'}`,
    abort: (by) => `run aborted by ${by ?? 'an operator'}`,
    'abort-no-adjudication': (by) => `run aborted by ${by ?? 'an operator'}`,
    wall: () => 'wall-clock budget exhausted',
};
function defaultStopReason(stop, by) {
    return STOP_REASON[stop](by);
}
const ABANDONED = 'TEAM_TASK_ABANDONED_ADJUDICATION_REQUIRED';
/** Also the failure type the worker gives such an attempt (src/activities/live-budget.ts). */
exports.BUDGET_EXCEEDED_CODE = 'TEAM_TASK_BUDGET_EXCEEDED';
function stopKind(stop) {
    if (!stop)
        return null;
    if (stop.kind === 'abort')
        return stop.requireAdjudication ? 'abort' : 'abort-no-adjudication';
    return stop.kind;
}
/**
 * An attempt that never started (its ledger refused it, or it was cancelled before a worker
 * took it) is handed back as if never claimed; one a human took over is decided like any other.
 */
function neverStarted(outcome, stop) {
    return outcome === 'not-started' && stop?.kind !== 'interrupt';
}
/** Where the outcome sends the task; the first rule that applies wins. */
function route(input) {
    const { outcome, stop } = input;
    if (stop === 'abort-no-adjudication')
        return { to: 'failed', why: 'aborted' };
    // A success that races a stop is evidence, never a success.
    if (stop)
        return { to: 'adjudication', code: STOP_CODE[stop], why: 'stopped' };
    if (input.unpriced)
        return { to: 'failed', why: 'unpriced' };
    // Stopped on its worker, like an interrupt: what it did is for a human to judge, and a retry would spend again.
    if (outcome === 'failed' && input.budgetExceeded)
        return { to: 'adjudication', code: exports.BUDGET_EXCEEDED_CODE, why: 'budget-exceeded' };
    if (input.usageUnknown)
        return { to: 'adjudication', code: ABANDONED, why: 'usage-unknown' };
    if (outcome === 'lease-lost' || outcome === 'released') {
        const lost = outcome === 'lease-lost';
        const because = noReLease(input, lost);
        if (because)
            return { to: 'adjudication', code: ABANDONED, why: lost ? 'lease-lost' : 'released', because };
        return { to: 're-lease', released: !lost };
    }
    if (outcome === 'completed') {
        if (!input.outputFits)
            return { to: 'failed', why: 'output-too-large' };
        if (input.asksToSpawn && input.spawn === undefined)
            return { to: 'add-tasks' };
        if (input.spawn === 'limit')
            return { to: 'adjudication', code: spawn_1.SPAWN_LIMIT_CODE, why: 'spawn-limit' };
        if (input.spawn === undefined || input.spawn === 'added')
            return { to: 'succeeded' };
    }
    // Tasks refused as an addition (a cycle, a key taken, a bad field) would be printed and refused again by a retry.
    const refusedAddition = input.spawn === 'forbidden' || input.spawn === 'invalid';
    const forGood = (outcome === 'failed' && input.nonRetryable) || refusedAddition;
    return forGood || input.attemptsSpent ? { to: 'failed', why: 'attempt-failed' } : { to: 'retry' };
}
function noReLease(input, lost) {
    if (lost && input.onLeaseLost === 'adjudicate')
        return 'on-lease-lost-adjudicate';
    if (lost && input.attemptsSpent)
        return 'attempts-spent';
    if (!input.acceptingWork)
        return 'not-accepting-work';
    return null;
}
