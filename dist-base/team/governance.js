"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.AttemptConfirmations = exports.MAX_PENDING_CONFIRMATIONS = void 0;
exports.checkActor = checkActor;
exports.checkTaskClaim = checkTaskClaim;
const control_1 = require("../plan/requests/control");
const ledger_1 = require("../plan/requests/ledger");
/** Throws `forbidden` when governance names operators and `actor` is not one of them. */
function checkActor(plan, actor, message) {
    const operators = plan.governance?.operators;
    const ledger = plan.budget.ledger;
    if (message === 'abortRun' && ledger !== undefined && actor === (0, ledger_1.ledgerActor)(ledger))
        return;
    if (operators && !(actor && operators.includes(actor))) {
        throw new control_1.TeamControlError('forbidden', `${message}: actor "${actor ?? ''}" is not one of governance.operators`);
    }
}
/**
 * A request that claims to be a running task (its fencing token, its key as `from`): with its
 * worker's proof it is the task's, applied only once that worker confirmed it; without, it is a
 * person holding a public token, and needs to be an operator.
 */
function checkTaskClaim(plan, caller, message) {
    if (caller.attempt)
        return;
    const operators = plan.governance?.operators;
    if (operators && !(caller.actor && operators.includes(caller.actor))) {
        throw new control_1.TeamControlError('forbidden', `${message}: a fencing token alone does not speak for a task (only its attempt's worker does, through ` +
            `teamrun inside the task); actor "${caller.actor ?? ''}" is not one of governance.operators`);
    }
}
/** Confirmations a run waits for at once; past it a request with a proof is refused at once. */
exports.MAX_PENDING_CONFIRMATIONS = 32;
/** Nonces a run remembers (oldest forgotten first; the worker forgets its own after use). */
const REMEMBERED_NONCES = 1024;
/**
 * The proofs a run has seen: a nonce is taken once, and only so many confirmations wait at once.
 * Workflow memory, not the snapshot: the handler rebuilds it on replay; after a continue-as-new the
 * worker's own single use of each nonce remains.
 */
class AttemptConfirmations {
    seen = new Set();
    pending = 0;
    /** The validator's check: throws `forbidden` for a nonce used before or when too many wait. */
    check(caller, message) {
        if (!caller.attempt)
            return;
        if (this.seen.has(caller.attempt.nonce))
            throw new control_1.TeamControlError('forbidden', `${message}: attempt nonce already used; each request needs a new one`);
        if (this.pending >= exports.MAX_PENDING_CONFIRMATIONS) {
            throw new control_1.TeamControlError('forbidden', `${message}: ${exports.MAX_PENDING_CONFIRMATIONS} attempt requests are being confirmed already; try again shortly`);
        }
    }
    begin(proof) {
        this.seen.add(proof.nonce);
        if (this.seen.size > REMEMBERED_NONCES)
            this.seen.delete(this.seen.values().next().value);
        this.pending += 1;
    }
    end() {
        this.pending -= 1;
    }
}
exports.AttemptConfirmations = AttemptConfirmations;
