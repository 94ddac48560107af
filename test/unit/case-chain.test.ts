import { describe, expect, it } from 'vitest';
import type { TeamPlanInput } from '../../src/plan/schema';
import { validatePlan } from '../../src/plan/validate';
import { TeamControlError } from '../../src/plan/requests/control';
import { TeamRun } from '../../src/team/run';
import {
  CHAIN_GENESIS,
  linkDigest,
  recordFacts,
  requestFacts,
  verifyChain,
  type ChainStep,
} from '../../src/team/case-chain';
import { sha256, toHex } from '../../src/agent/sha256';

let now = 1_000_000;
const tick = (ms = 10) => (now += ms);

/** A run whose tasks `a`, `b`, `c` were each interrupted into adjudication. */
function threeInAdjudication(): TeamRun {
  const tasks = ['a', 'b', 'c'].map((key) => ({
    key,
    dependsOn: [],
    executor: { kind: 'sleep' as const, ms: 60_000 },
  }));
  const validation = validatePlan({ name: 'cases', teammates: 3, tasks } satisfies TeamPlanInput);
  if (!validation.ok) throw new Error(JSON.stringify(validation.problems));
  const run = TeamRun.start(validation.plan, 'wf-cases', now);
  for (const claim of run.claim(now)) {
    run.interrupt({ key: claim.key, fencingToken: claim.fencingToken, requestId: `r-${claim.key}` }, tick());
    run.drainCancellations();
    run.settle(claim.key, claim.fencingToken, { kind: 'cancelled', output: { partial: claim.key } }, tick());
  }
  expect(run.status(now).pendingAdjudications).toBe(3);
  return run;
}

function codeOf(check: () => unknown): string {
  try {
    check();
  } catch (err) {
    expect(err).toBeInstanceOf(TeamControlError);
    return (err as TeamControlError).code;
  }
  throw new Error('expected a TeamControlError');
}

const record = (run: TeamRun, key: string) => [...run.adjudicationsView()].reverse().find((r) => r.key === key)!;

describe('adjudication cases: bound once', () => {
  it('binds a case by bindCase, answers the same case again as idempotent, refuses another', () => {
    const run = threeInAdjudication();
    expect(run.bindCase({ key: 'a', caseId: 'JIRA-1', actor: 'alice' }, tick())).toEqual({
      ok: true,
      key: 'a',
      caseId: 'JIRA-1',
    });
    expect(run.bindCase({ key: 'a', caseId: 'JIRA-1' }, tick())).toMatchObject({ idempotent: true });
    expect(codeOf(() => run.bindCase({ key: 'a', caseId: 'JIRA-2' }, tick()))).toBe('case_already_bound');
    expect(record(run, 'a').caseId).toBe('JIRA-1');
    const bound = run.eventsView({ limit: 1000 }).events.filter((e) => e.type === 'adjudication:case-bound');
    expect(bound).toHaveLength(1);
    expect(bound[0]).toMatchObject({ key: 'a', caseId: 'JIRA-1', actor: 'alice' });
  });

  it('binds a case on the adjudicate request, and refuses a decision naming another case than the bound one', () => {
    const run = threeInAdjudication();
    run.bindCase({ key: 'b', caseId: 'case-b' }, tick());
    const refused = () => run.adjudicate({ key: 'b', decision: 'reject', decisionId: 'd-b', caseId: 'other' }, tick());
    expect(codeOf(refused)).toBe('case_already_bound');
    run.adjudicate({ key: 'a', decision: 'accept', decisionId: 'd-a', caseId: 'case-a' }, tick());
    expect(record(run, 'a').caseId).toBe('case-a');
    run.adjudicate({ key: 'b', decision: 'reject', decisionId: 'd-b', caseId: 'case-b' }, tick());
    expect(record(run, 'b').decision?.decision).toBe('reject');
  });

  it('refuses a malformed or overlong case id, an unknown task, and a task not awaiting adjudication', () => {
    const run = threeInAdjudication();
    expect(codeOf(() => run.bindCase({ key: 'a', caseId: 'has space' }, tick()))).toBe('invalid_case_id');
    expect(codeOf(() => run.bindCase({ key: 'a', caseId: 'x'.repeat(129) }, tick()))).toBe('invalid_case_id');
    expect(codeOf(() => run.bindCase({ key: 'a', caseId: '-lead' }, tick()))).toBe('invalid_case_id');
    expect(run.bindCase({ key: 'a', caseId: `A${'x'.repeat(127)}` }, tick()).ok).toBe(true);
    expect(codeOf(() => run.bindCase({ key: 'nope', caseId: 'c1' }, tick()))).toBe('not_found');
    run.adjudicate({ key: 'c', decision: 'reject', decisionId: 'd-c' }, tick());
    expect(codeOf(() => run.bindCase({ key: 'c', caseId: 'c1' }, tick()))).toBe('adjudication_not_required');
    const bad = () => run.adjudicate({ key: 'b', decision: 'reject', decisionId: 'd-b', caseId: 'a b' }, tick());
    expect(codeOf(bad)).toBe('invalid_case_id');
  });
});

describe('the decision chain', () => {
  it("links each decision to the one before it; the verdict, the record and the run's head agree", () => {
    const run = threeInAdjudication();
    run.bindCase({ key: 'b', caseId: 'T-9' }, tick());
    const first = run.adjudicate(
      { key: 'a', decision: 'accept', decisionId: 'd1', actor: 'al', result: { x: 1 } },
      tick(),
    );
    const second = run.adjudicate({ key: 'b', decision: 'reject', decisionId: 'd2', reason: 'wrong' }, tick());
    expect(first.chain).toEqual({
      seq: 1,
      prev: CHAIN_GENESIS,
      digest: linkDigest(CHAIN_GENESIS, 1, {
        key: 'a',
        decisionId: 'd1',
        decision: 'accept',
        actor: 'al',
        reason: null,
        caseId: null,
        result: { x: 1 },
      }),
    });
    expect(second.chain?.prev).toBe(first.chain?.digest);
    expect(second.chain?.seq).toBe(2);
    expect(record(run, 'b').decision?.chain).toEqual(second.chain);
    expect(run.status(now).decisionChain).toEqual({ seq: 2, head: second.chain?.digest });
    // A repeat applies nothing and links nothing.
    const again = run.adjudicate({ key: 'b', decision: 'reject', decisionId: 'd2' }, tick());
    expect(again.idempotent).toBe(true);
    expect(run.status(now).decisionChain?.seq).toBe(2);
    // The head crosses continue-as-new.
    const carried = new TeamRun(run.snapshot());
    const third = carried.adjudicate({ key: 'c', decision: 'reject', decisionId: 'd3' }, tick());
    expect(third.chain).toMatchObject({ seq: 3, prev: second.chain?.digest });
    // The digest covers the case: the same decision with another case gives another digest.
    const facts = recordFacts(record(run, 'b'))!;
    expect(facts.caseId).toBe('T-9');
    expect(linkDigest(first.chain!.digest, 2, facts)).toBe(second.chain?.digest);
    expect(linkDigest(first.chain!.digest, 2, { ...facts, caseId: 'T-8' })).not.toBe(second.chain?.digest);
  });

  it('the digest is SHA-256 over prev, a newline and the canonical decision', () => {
    const facts = { key: 'k', decisionId: 'd', decision: 'retry' as const, actor: null, reason: null, caseId: null };
    const text = `${CHAIN_GENESIS}\n${JSON.stringify([1, 'k', 'd', 'retry', null, null, null, null])}`;
    expect(linkDigest(CHAIN_GENESIS, 1, facts)).toBe(toHex(sha256(new TextEncoder().encode(text))));
  });
});

describe('verifyChain', () => {
  const request = (n: number) => ({ key: `t${n}`, decision: 'reject' as const, decisionId: `d${n}`, reason: `r${n}` });
  function chainOf(count: number): ChainStep[] {
    const steps: ChainStep[] = [];
    let prev = CHAIN_GENESIS;
    for (let n = 1; n <= count; n++) {
      const facts = requestFacts(request(n), null);
      const digest = linkDigest(prev, n, facts);
      steps.push({ link: { seq: n, prev, digest }, decisionId: `d${n}`, facts });
      prev = digest;
    }
    return steps;
  }

  it('passes an untouched chain, and the head it reaches', () => {
    const steps = chainOf(4);
    const verdict = verifyChain(steps, { seq: 4, head: steps[3].link.digest });
    expect(verdict).toMatchObject({ ok: true, verified: 4, unverifiable: 0, seq: 4, broken: null });
  });

  it('names the decision whose request was edited, with the digest expected and the one found', () => {
    const steps = chainOf(4);
    steps[2].facts = { ...steps[2].facts!, reason: 'edited' };
    const verdict = verifyChain(steps);
    expect(verdict.ok).toBe(false);
    expect(verdict.broken).toMatchObject({ seq: 3, decisionId: 'd3', found: steps[2].link.digest });
    expect(verdict.broken?.expected).toBe(linkDigest(steps[1].link.digest, 3, steps[2].facts!));
    expect(verdict.verified).toBe(2);
  });

  it('finds a decision dropped or a link that does not follow', () => {
    const dropped = chainOf(3);
    dropped[2].link = { ...dropped[2].link, prev: dropped[0].link.digest };
    expect(verifyChain(dropped).broken).toMatchObject({ seq: 3, why: 'does not follow the decision before it' });
    const reordered = chainOf(3);
    [reordered[1], reordered[2]] = [reordered[2], reordered[1]];
    expect(verifyChain(reordered).broken?.why).toBe('out of order');
  });

  it("takes the run's own decisions (no request) as recorded, and a head that differs fails", () => {
    const steps = chainOf(4);
    const withGap = [steps[0], steps[2], steps[3]];
    expect(verifyChain(withGap)).toMatchObject({ ok: true, verified: 3, unverifiable: 1 });
    expect(verifyChain(steps, { seq: 4, head: 'f'.repeat(64) }).ok).toBe(false);
    expect(verifyChain(steps, { seq: 6, head: 'f'.repeat(64) })).toMatchObject({ ok: true, unverifiable: 2 });
  });

  it("clips a request's reason as the record keeps it", () => {
    const long = requestFacts({ key: 'k', decision: 'reject', decisionId: 'd', reason: 'y'.repeat(500) }, 'C');
    expect(long.reason?.startsWith('y'.repeat(200))).toBe(true);
    expect(long.reason).toContain('300 more chars');
    expect(long.caseId).toBe('C');
  });
});
