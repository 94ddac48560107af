/**
 * The defaults the docs state, read from the code's own constants: a changed default fails here until the docs say
 * the new one. Each check names the sentence it looks for, so a failure says which doc to fix.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ABORT_CODE_DEFAULT, AbortCodeSchema } from '../../src/plan/requests/control';
import { LEASE_PACE, STOP_ANNOUNCE_AFTER_MS, defaultHeartbeatEveryMs } from '../../src/plan/lease-pace';
import { CONTINUE_AS_NEW_EVENTS, TeamPlanSchema } from '../../src/plan/schema';
import { Budget } from '../../src/team/budget';
import { lostAttemptBound } from '../../src/team/lost-usage';
import { HEARTBEAT_THROTTLE_MS } from '../../src/worker/create-worker';
import { MODEL_RETRY_LIMITS, modelRetryPolicy } from '../../src/plan/model-retry';
import { RUN_CHECK_EVERY_MS } from '../../src/agent/lifetime';

const doc = (name: string) => readFileSync(path.join(__dirname, '..', '..', 'docs', name), 'utf8').replace(/\s+/g, ' ');
const seconds = (ms: number) => `${ms / 1_000} s`;
const thousands = (n: number) => n.toLocaleString('en-US');

const plan = TeamPlanSchema.parse({ name: 'defaults', tasks: [] });

describe("the documented defaults are the code's", () => {
  it("docs/leases.md: the heartbeat pace is the lease's, not one a second", () => {
    const leases = doc('leases.md');
    const ttl = plan.lease.ttlMs;
    expect(leases).toContain(`TTL ${seconds(ttl)}: every ${seconds(defaultHeartbeatEveryMs(ttl))}`);
    expect(leases).toContain(`2 s: every ${seconds(defaultHeartbeatEveryMs(2_000))}`);
    expect(leases).toContain(
      `\`ttlMs\` less a third of it, at least ${seconds(LEASE_PACE.defaultMarginMs)} and at most half`,
    );
    expect(LEASE_PACE.defaultMarginFractionOfTtl).toBe(1 / 3);
    expect(leases).toContain(`1 min: every ${seconds(defaultHeartbeatEveryMs(60_000))}`);
    expect(leases).not.toMatch(/at most one heartbeat per running attempt per second/);
  });

  it("docs/lease-pace.md: the default TTL, the bounds of the pace and the worker's throttle", () => {
    const pace = doc('lease-pace.md');
    expect(pace).toContain(`(\`lease.ttlMs\`, default ${seconds(plan.lease.ttlMs)})`);
    expect(pace).toContain(
      `${LEASE_PACE.minHeartbeatEveryMs} ms .. ${LEASE_PACE.maxFractionOfTtl * 100}% of \`ttlMs\``,
    );
    expect(pace).toContain(`is ${HEARTBEAT_THROTTLE_MS} ms`);
  });

  it('docs/takeover.md: a stop does not wait for a heartbeat, and an abort may carry its code', () => {
    const takeover = doc('takeover.md');
    expect(STOP_ANNOUNCE_AFTER_MS).toBe(1_000);
    expect(takeover).toContain("an attempt running for a second has announced its worker's own stop queue");
    expect(takeover).toContain(
      `by default every ${seconds(defaultHeartbeatEveryMs(plan.lease.ttlMs))} at the ${seconds(plan.lease.ttlMs)} TTL`,
    );
    expect(takeover).not.toContain('(one a second)');
    expect(takeover).toContain('`abortRun {code?, reason?');
    expect(takeover).toContain(ABORT_CODE_DEFAULT);
    expect(
      AbortCodeSchema.safeParse('A'.repeat(64)).success && !AbortCodeSchema.safeParse('A'.repeat(65)).success,
    ).toBe(true);
    expect(takeover).toContain('1..64 chars of `[A-Z0-9_]`');
  });

  it("docs/agents.md: modelRetry's defaults and bounds, and how soon a journal hears its run closed", () => {
    const agents = doc('agents.md');
    const policy = modelRetryPolicy(undefined);
    expect(agents).toContain(`| \`maxElapsedMs\` | ${thousands(policy.maxElapsedMs)} (10 minutes in all) |`);
    expect(policy.maxElapsedMs).toBe(10 * 60_000);
    expect(agents).toContain(`0..${thousands(MODEL_RETRY_LIMITS.maxElapsedMs)}`);
    expect(agents).toContain(`| \`initialIntervalMs\` | ${thousands(policy.initialIntervalMs)} |`);
    expect(agents).toContain(`| \`maxIntervalMs\` | ${thousands(policy.maxIntervalMs)} (`);
    expect(agents).toContain(`1..${thousands(MODEL_RETRY_LIMITS.maxIntervalMs)}`);
    expect(agents).toContain(`| \`backoffCoefficient\` | ${policy.backoffCoefficient} |`);
    expect(agents).toContain(`it asks every ${seconds(RUN_CHECK_EVERY_MS)}`);
  });

  it('docs/budgets.md: a lost attempt is charged its bound, or its reservation where nothing bounds it, never nothing', () => {
    const budget = Budget.create({ maxTokens: 1_000 });
    const reserved = budget.reserve({ tokens: 400 }, 1);
    expect(reserved.ok && budget.settleUnknown(reserved.reservation)).toEqual({ tokens: 400, usd: 0 });
    expect(lostAttemptBound('shell', { tokens: 400, usd: 0.5 })).toEqual({ tokens: 400, usd: 0.5 });
    expect(lostAttemptBound('my-kind', { tokens: 400, usd: 0.5 })).toBeNull();
    const budgets = doc('budgets.md');
    expect(budgets).toContain('what a lost attempt of theirs spent is unknown. It is charged its reservation');
    expect(budgets).toContain('is charged that bound, its reservation is released');
    expect(budgets).not.toContain('nothing is charged for it');
  });

  it('docs/plans.md: retries, the adjudication wait and the continue-as-new bound', () => {
    const plans = doc('plans.md');
    expect(plans).toContain(`Attempts per task (default ${plan.retry.maxAttempts})`);
    expect(plans).toContain(`(default ${plan.retry.backoffMs})`);
    expect(plan.adjudicationTimeoutMs).toBe(7 * 24 * 3_600_000);
    expect(plans).toContain(`adjudicationTimeoutMs: ${plan.adjudicationTimeoutMs}`);
    expect(plans).toContain('(default 7 days)');
    const { min, max, default: byDefault } = CONTINUE_AS_NEW_EVENTS;
    expect(plans).toContain(`(${min}..${thousands(max)}, default ${thousands(byDefault)})`);
  });
});
