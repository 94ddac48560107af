"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.validateTightenBudget = validateTightenBudget;
exports.tightenBudget = tightenBudget;
const control_1 = require("../plan/requests/control");
const governance_1 = require("./governance");
function validateTightenBudget(run, payload) {
    const request = (0, control_1.parseControl)(control_1.TightenBudgetRequestSchema, payload ?? {}, 'tightenBudget');
    (0, governance_1.checkActor)(run.plan, request.actor, 'tightenBudget');
    const loosened = run.budget.loosenings(request);
    if (loosened.length) {
        throw new control_1.TeamControlError('loosening_refused', `tightenBudget: ${loosened.join(', ')} would loosen the budget; limits only tighten`, loosened[0].split(' ')[0]);
    }
    return request;
}
function tightenBudget(run, payload, now) {
    const request = validateTightenBudget(run, payload);
    const { requestId, actor, ...limits } = request;
    const stop = run.budget.tighten(limits, Math.max(0, now - run.startedAt));
    run.events.record('budget:tightened', now, { limits, requestId: requestId ?? null, actor: actor ?? null });
    if (stop === 'max-wall-ms')
        run.wallExpired(now);
    else if (stop)
        run.stopForBudget(stop, now);
    run.touch();
    return { ok: true, budget: run.budget.view(now, run.startedAt) };
}
