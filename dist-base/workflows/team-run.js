"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.teamRun = teamRun;
/**
 * `teamRun`: one team run as a Temporal workflow. A thin shell over the pure run (team/run.ts):
 * each step claims and launches attempts, publishes where the run is, and then closes, hands over
 * to a fresh run (continue-as-new) or waits for the next change. Attempts, handlers, hooks and
 * what the run shows outside each live in their own module beside this one.
 */
const workflow_1 = require("@temporalio/workflow");
const schema_1 = require("../plan/schema");
const validate_1 = require("../plan/validate");
const interface_1 = require("../activities/interface");
const run_1 = require("../team/run");
const snapshot_1 = require("../team/snapshot");
const handover_1 = require("../team/handover");
const attempts_1 = require("./attempts");
const cancel_1 = require("./cancel");
const details_1 = require("./details");
const handlers_1 = require("./handlers");
const idle_hooks_1 = require("./idle-hooks");
const publish_1 = require("./publish");
const stop_channel_1 = require("./stop-channel");
const run_ledger_1 = require("../ledger/run-ledger");
async function teamRun(input) {
    const run = begin(input);
    run.usePatches(workflow_1.patched);
    const ledger = run.ledgerId === null
        ? null
        : new run_ledger_1.RunLedger(run.ledgerId, run.workflowId, run.status(Date.now()).name, (claim, phase, message) => run.ledgerWait(phase, { key: claim.key, fencingToken: claim.fencingToken, ledger: run.ledgerId, message }, Date.now()));
    // Links the latest attempts printed, for the current details only: never in the run's state.
    const links = new details_1.RecentLinks();
    const attempts = new attempts_1.Attempts(run, ledger, links);
    const hooks = new idle_hooks_1.IdleHooks(run);
    const publisher = new publish_1.Publisher(run, links, ledger);
    (0, handlers_1.registerHandlers)(run, ledger ?? undefined);
    // Attempts the previous run carried over (src/team/handover.ts) run on: re-attach to them first.
    for (const adoption of run.adoptions())
        attempts.adopt(adoption);
    // Temporal's own cancellation (`temporal workflow cancel`, the UI's button) is a coordinator abort.
    void workflow_1.CancellationScope.current().cancelRequested.catch(() => run.cancelRequested(Date.now()));
    return workflow_1.CancellationScope.nonCancellable(async () => {
        await ledger?.register();
        const deadline = run.wallDeadline();
        if (deadline !== null) {
            // Not awaited: the wall clock runs beside the loop and only marks the run (the loop then wakes).
            void (0, workflow_1.sleep)(Math.max(1, deadline - Date.now())).then(() => run.wallExpired(Date.now()));
        }
        let handingOver = false;
        // Whether this handover may carry long attempts rather than wait for them: asked once, as it
        // begins with attempts in flight (runs recorded before carrying existed keep waiting).
        let carrying = false;
        for (;;) {
            const now = Date.now();
            // Stops asked for while the run waited (takeover, abort, wall clock) go out first.
            attempts.cancelStopped();
            // A cancelled run closes as Canceled here, with its result: it never hands over.
            if (run.cancelling)
                handingOver = false;
            else if (!handingOver) {
                handingOver = startHandover(run, now);
                carrying = handingOver && run.activeCount > 0 && (0, workflow_1.patched)(CARRY_ATTEMPTS);
            }
            run.expireApprovals(now);
            if (!handingOver)
                for (const claim of run.claim(now))
                    attempts.launch(claim);
            hooks.start();
            // A claim past the wall deadline stops the run before the timer fires: cancel at once.
            attempts.cancelStopped();
            publisher.publish();
            if (run.phase() === 'done')
                break;
            if (handingOver && (run.activeCount === 0 || (carrying && run.mayHandOver()))) {
                // Long attempts still running are carried, not waited for: their workers keep them for
                // the next run (which adopts them), and the old run's activities end unanswered.
                const carried = run.activeCount;
                if (carried > 0)
                    await (0, stop_channel_1.handOver)(run.handOverRequests());
                // Updates and signals already delivered have run; the snapshot is taken in this same
                // workflow task, and one that reaches the server meanwhile makes it refuse the
                // continue-as-new (UnhandledCommand) and replay this task with it included. Updates it
                // has not delivered yet go to the next run.
                await ledger?.drain();
                await hooks.drained();
                await (0, workflow_1.condition)(workflow_1.allHandlersFinished);
                run.record('run:continued-as-new', Date.now(), {
                    historyLength: (0, workflow_1.workflowInfo)().historyLength,
                    ...(carried > 0 ? { carried: run.activeCount } : {}),
                });
                return (0, workflow_1.continueAsNew)({ continued: (0, snapshot_1.packSnapshot)(run.snapshot()) });
            }
            // Wait for the next change, or the next time the run must act by itself.
            const seen = run.version;
            const wait = run.beginWait(now, handingOver);
            // An attempt announcing its worker changes no state the loop waits on, but may let a
            // carrying handover go ahead: wake for that too.
            const changed = () => run.version !== seen || (carrying && run.mayHandOver());
            let moved = true;
            if (wait.timeoutMs === null)
                await (0, workflow_1.condition)(changed);
            else
                moved = wait.timeoutMs > 0 && (await (0, workflow_1.condition)(changed, wait.timeoutMs));
            if (wait.closesAt !== null && !moved && wait.closesAt <= Date.now())
                run.closeUnresolved(Date.now());
        }
        await ledger?.unregister();
        const result = run.finish(Date.now());
        hooks.start();
        await hooks.drained();
        await (0, workflow_1.condition)(workflow_1.allHandlersFinished);
        publisher.publish();
        if (run.cancelling)
            return (0, cancel_1.closeAsCanceled)(result);
        return result;
    });
}
function begin(input) {
    if (input && typeof input === 'object' && 'continued' in input)
        return new run_1.TeamRun((0, snapshot_1.unpackSnapshot)(input.continued));
    const validation = (0, validate_1.validatePlan)(input);
    if (!validation.ok) {
        throw workflow_1.ApplicationFailure.create({
            type: interface_1.FAILURE_TYPES.invalidPlan,
            message: `invalid team plan:\n${(0, validate_1.formatProblems)(validation.problems)}`,
            nonRetryable: true,
            details: [validation.problems],
        });
    }
    return run_1.TeamRun.start(validation.plan, (0, workflow_1.workflowInfo)().workflowId, Date.now());
}
/** From here nothing new starts: in-flight attempts settle in this run, then it hands over. */
function startHandover(run, now) {
    if (!shouldContinueAsNew(run.continueAsNewAfterEvents))
        return false;
    const { historyLength, historySize } = (0, workflow_1.workflowInfo)();
    run.record('run:continuing-as-new', now, { historyLength, historySize, active: run.activeCount });
    return true;
}
function shouldContinueAsNew(afterEvents) {
    const info = (0, workflow_1.workflowInfo)();
    // Runs whose history began before the size-only rule keep following every suggestion (replay stays deterministic).
    const due = info.continueAsNewSuggested && !(0, workflow_1.patched)(HANDOVER_ON_SIZE_ONLY) ? handover_1.handOverOnAnySuggestion : handover_1.handOverDue;
    return due(info, afterEvents, schema_1.CONTINUE_AS_NEW_HISTORY_BYTES);
}
const HANDOVER_ON_SIZE_ONLY = 'teamrun-handover-on-size-only';
/** Runs whose history began before attempts could be carried waited for every attempt (replay stays deterministic). */
const CARRY_ATTEMPTS = 'teamrun-carry-attempts';
