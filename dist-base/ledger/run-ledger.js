"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.RunLedger = exports.AttemptNotStarted = void 0;
const workflow_1 = require("@temporalio/workflow");
const activity_interface_1 = require("./activity-interface");
const errors_1 = require("../errors");
const limits_1 = require("./limits");
/** The attempt never started: its ledger refused it for good (`reason`), or it was stopped while it waited. */
class AttemptNotStarted extends errors_1.TeamrunError {
    reason;
    code = 'attempt_not_started';
    constructor(reason, message) {
        super(message);
        this.reason = reason;
        this.name = 'AttemptNotStarted';
    }
}
exports.AttemptNotStarted = AttemptNotStarted;
/** Registration outlives a ledger that is briefly unreachable; a run does not start without it. */
const registration = (0, workflow_1.proxyActivities)({
    startToCloseTimeout: '30s',
    heartbeatTimeout: '10s',
    retry: { initialInterval: '1s', maximumInterval: '10s' },
});
/** A run that finishes gives up unregistering after a while: the ledger forgets unreachable runs anyway. */
const farewell = (0, workflow_1.proxyActivities)({
    startToCloseTimeout: '30s',
    heartbeatTimeout: '10s',
    scheduleToCloseTimeout: '5m',
    retry: { initialInterval: '1s', maximumInterval: '10s' },
});
/** Runs recorded before the ledger granted extensions never asked it: their histories replay without the call. */
const LEDGER_EXTENSIONS = 'teamrun-ledger-extensions';
/**
 * A team run's side of a shared ledger (`budget.ledger` in its plan): register at start, a slot
 * before each attempt, a settlement after it, unregister at the end. Each attempt is charged to
 * the ledger once (the run's own budget charges it once more, on its own account).
 */
class RunLedger {
    id;
    workflowId;
    name;
    onWait;
    /** Attempts that asked for a slot and must be settled with the ledger (held or maybe held). */
    asked = new Set();
    settling = new Set();
    /**
     * What the ledger granted each attempt beyond its reservation, by attempt id: a lost attempt held that too. Workflow
     * memory is enough: a run on a ledger carries no attempt across its continue-as-new (each settles first).
     */
    extended = new Map();
    /** Attempts waiting for the ledger's recovery, by activity id: workflow memory, for the current details. */
    waiting = new Set();
    constructor(id, workflowId, name, 
    /** Tells the run an attempt began (`waiting`) or ended (`admitted`) a wait for the ledger's recovery. */
    onWait = () => { }) {
        this.id = id;
        this.workflowId = workflowId;
        this.name = name;
        this.onWait = onWait;
    }
    /** The status line while attempts wait for an operator to resolve the ledger; null when none waits. */
    waitingLine() {
        if (!this.waiting.size)
            return null;
        return (`${this.waiting.size} attempt(s) wait: ledger ${this.id} requires recovery (a lost attempt's usage is ` +
            `unknown); an operator runs \`teamrun ledger resolve ${this.id} --usage '{...}'\` or \`--release\``);
    }
    async register() {
        await registration.ledgerRegister({ ledgerId: this.id, workflowId: this.workflowId, name: this.name });
    }
    /** What `runTask` needs to keep the slot: a renewal every TTL, on a lease of two TTLs. */
    lease(claim) {
        return { ledgerId: this.id, attemptId: claim.leaseId, renewEveryMs: claim.ttlMs };
    }
    /**
     * Takes a slot for the attempt, then starts it. Call inside the attempt's cancellation scope:
     * an interrupt or abort while it waits for a slot stops the wait. Rejects with
     * `AttemptNotStarted` when the attempt never started.
     */
    async admit(claim, start) {
        this.asked.add(claim.leaseId);
        try {
            await this.acquire(claim);
        }
        catch (err) {
            const refused = refusalOf(err);
            if (refused) {
                this.asked.delete(claim.leaseId);
                throw new AttemptNotStarted((0, limits_1.ledgerBudgetReason)(refused.reason), refused.message);
            }
            if ((0, workflow_1.isCancellation)(err))
                throw new AttemptNotStarted(null, `stopped while waiting for a slot of ledger ${this.id}`);
            throw err;
        }
        if (workflow_1.CancellationScope.current().consideredCancelled) {
            throw new AttemptNotStarted(null, `stopped before it started, holding a slot of ledger ${this.id}`);
        }
        return start();
    }
    /**
     * Takes the slot, waiting (retries out of history) while slots or reservations are held. A ledger that requires
     * recovery refuses the first try, so the run can say why it waits; the second try then waits for an operator.
     */
    async acquire(claim) {
        const tries = (activityId) => (0, workflow_1.proxyActivities)({
            activityId,
            startToCloseTimeout: '30s',
            heartbeatTimeout: '5s',
            retry: {
                initialInterval: '200ms',
                backoffCoefficient: 1.5,
                maximumInterval: '2s',
                nonRetryableErrorTypes: [activity_interface_1.LEDGER_FAILURE_TYPES.refused],
            },
            summary: `ledger ${this.id}: slot for ${claim.activityId}`,
        }).ledgerAcquire;
        const request = {
            ledgerId: this.id,
            attemptId: claim.leaseId,
            workflowId: this.workflowId,
            reservation: claim.estimate,
            leaseMs: 2 * claim.ttlMs,
        };
        try {
            await tries(`${claim.activityId}:ledger-acquire`)({ ...request, refuseRecovery: true });
            return;
        }
        catch (err) {
            const refused = refusalOf(err);
            if (refused?.reason !== 'recovery-required')
                throw err;
            this.waiting.add(claim.activityId);
            this.onWait(claim, 'waiting', refused.message);
        }
        try {
            await tries(`${claim.activityId}:ledger-recovery`)(request);
            this.onWait(claim, 'admitted', `ledger ${this.id} resolved`);
        }
        finally {
            this.waiting.delete(claim.activityId);
        }
    }
    /**
     * Grows the attempt's slot by an extension the run granted it: null once the ledger grants it too, else the
     * budget reason and why. It fails closed: a ledger that cannot be asked (unreachable, or of an older version
     * without `extend`) refuses.
     */
    async extend(attemptId, extension) {
        if (!(0, workflow_1.patched)(LEDGER_EXTENSIONS))
            return null;
        const { ledgerExtend } = (0, workflow_1.proxyActivities)({
            startToCloseTimeout: '10s',
            scheduleToCloseTimeout: '30s',
            heartbeatTimeout: '5s',
            retry: {
                initialInterval: '200ms',
                maximumInterval: '2s',
                nonRetryableErrorTypes: [activity_interface_1.LEDGER_FAILURE_TYPES.refused],
            },
            summary: `ledger ${this.id}: extend ${attemptId}`,
        });
        try {
            await ledgerExtend({ ledgerId: this.id, attemptId, extensionId: (0, workflow_1.uuid4)(), extension });
        }
        catch (err) {
            const refused = refusalOf(err);
            if (refused)
                return { reason: (0, limits_1.ledgerBudgetReason)(refused.reason) ?? `ledger-${refused.reason}`, message: refused.message };
            return { reason: 'ledger-unreachable', message: `ledger ${this.id} could not be asked: ${String(err)}` };
        }
        const held = this.extended.get(attemptId) ?? { tokens: 0, usd: 0 };
        this.extended.set(attemptId, { tokens: held.tokens + extension.tokens, usd: held.usd + extension.usd });
        return null;
    }
    /** Charges the attempt's usage to the ledger and frees its slot, in the background, retried until it lands. */
    settle(claim, outcome) {
        if (!this.asked.delete(claim.leaseId))
            return;
        const usage = ('usage' in outcome ? outcome.usage : undefined) ?? null;
        const more = this.extended.get(claim.leaseId) ?? { tokens: 0, usd: 0 };
        this.extended.delete(claim.leaseId);
        // A lost attempt's usage is unknown: the ledger holds what it reserved (extensions too) until an operator
        // resolves it.
        const reservation = { tokens: claim.estimate.tokens + more.tokens, usd: claim.estimate.usd + more.usd };
        const lost = outcome.kind === 'lease-lost' ? { lost: { reservation, workflowId: this.workflowId } } : {};
        const { ledgerSettle } = (0, workflow_1.proxyActivities)({
            activityId: `${claim.activityId}:ledger-settle`,
            startToCloseTimeout: '30s',
            heartbeatTimeout: '5s',
            retry: { initialInterval: '500ms', maximumInterval: '10s' },
            summary: `ledger ${this.id}: settle ${claim.activityId}`,
        });
        // Not cancellable: an aborted run still owes the ledger its usage.
        const settling = workflow_1.CancellationScope.nonCancellable(() => ledgerSettle({ ledgerId: this.id, attemptId: claim.leaseId, usage, ...lost })).then(() => undefined, (err) => workflow_1.log.error('ledger settlement failed', { ledgerId: this.id, attemptId: claim.leaseId, error: String(err) }));
        this.settling.add(settling);
        void settling.finally(() => this.settling.delete(settling));
    }
    /** Waits for every settlement in flight (before the run closes or continues as new). */
    async drain() {
        while (this.settling.size)
            await Promise.all(this.settling);
    }
    async unregister() {
        await this.drain();
        await farewell
            .ledgerUnregister({ ledgerId: this.id, workflowId: this.workflowId })
            .catch((err) => workflow_1.log.warn('could not unregister from the ledger', { ledgerId: this.id, error: String(err) }));
    }
}
exports.RunLedger = RunLedger;
function refusalOf(err) {
    const cause = err instanceof workflow_1.ActivityFailure ? err.cause : err;
    if (!(cause instanceof workflow_1.ApplicationFailure) || cause.type !== activity_interface_1.LEDGER_FAILURE_TYPES.refused)
        return null;
    const details = cause.details?.[0];
    return { reason: details?.reason ?? 'unknown', message: cause.message };
}
