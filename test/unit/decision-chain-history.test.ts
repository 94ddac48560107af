import { describe, expect, it } from 'vitest';
import type { AdjudicationRecord } from '../../src/contract';
import { chainHistory, verifyRunChain, type ChainEvent } from '../../src/report/decision-chain';
import { validatePlan } from '../../src/plan/validate';
import { TeamRun } from '../../src/team/run';

let now = 9_000_000;
const tick = () => (now += 10);

/** A history's update pair as a file holds it (base64 JSON payloads), numbered from `id`. */
function update(id: number, name: string, request: unknown, verdict: unknown): ChainEvent[] {
  const payload = (value: unknown) => ({
    payloads: [
      {
        metadata: { encoding: Buffer.from('json/plain').toString('base64') },
        data: Buffer.from(JSON.stringify(value)).toString('base64'),
      },
    ],
  });
  return [
    {
      eventId: String(id),
      workflowExecutionUpdateAcceptedEventAttributes: { acceptedRequest: { input: { name, args: payload(request) } } },
    },
    {
      eventId: String(id + 1),
      workflowExecutionUpdateCompletedEventAttributes: {
        acceptedEventId: String(id),
        outcome: { success: payload(verdict) },
      },
    },
  ];
}

/** Approvals a1 (bound to a case, then accepted by a person), a2 (timed out: the run's own decision), a3. */
function decidedRun() {
  const tasks = ['a1', 'a2', 'a3'].map((key) => ({
    key,
    dependsOn: [],
    executor: { kind: 'approval' as const, prompt: key, ...(key === 'a2' ? { timeoutMs: 1_000 } : {}) },
  }));
  const validation = validatePlan({ name: 'chain', teammates: 1, tasks });
  if (!validation.ok) throw new Error(JSON.stringify(validation.problems));
  const run = TeamRun.start(validation.plan, 'wf-chain', now);
  run.claim(tick());
  const events: ChainEvent[] = [];
  const bind = { key: 'a1', caseId: 'INC-4' };
  events.push(...update(10, 'bindCase', bind, run.bindCase(bind, tick())));
  const first = { key: 'a1', decision: 'accept' as const, decisionId: 'd1', result: { ok: true } };
  events.push(...update(20, 'adjudicate', first, run.adjudicate(first, tick())));
  now += 5_000;
  run.expireApprovals(now);
  const third = { key: 'a3', decision: 'reject' as const, decisionId: 'd3', reason: 'no' };
  events.push(...update(30, 'adjudicate', third, run.adjudicate(third, tick())));
  // A repeat applies nothing: the verifier skips it.
  events.push(...update(40, 'adjudicate', third, run.adjudicate(third, tick())));
  return { run, events };
}

describe('verifying a run from its history', () => {
  it("recomputes requests from history and the run's own decision from its record, up to the run's head", () => {
    const { run, events } = decidedRun();
    const records: AdjudicationRecord[] = run.adjudicationsView();
    expect(records.find((r) => r.key === 'a2')?.decision?.decisionId).toMatch(/^approval-timeout:/);
    const head = run.status(now).decisionChain;
    expect(head?.seq).toBe(3);
    const report = verifyRunChain(chainHistory([{ events }]), { records, head });
    expect(report).toMatchObject({ ok: true, fromHistory: 2, fromRecord: 1, verified: 3, unverifiable: 0, seq: 3 });
    // From history alone (a file), the run's own decision cannot be recomputed: counted, and the chain resumes.
    expect(verifyRunChain(chainHistory([{ events }]))).toMatchObject({ ok: true, verified: 2, unverifiable: 1 });
  });

  it('names the decision whose bound case or result was edited', () => {
    const { run, events } = decidedRun();
    const edit = (at: number, change: (value: Record<string, unknown>) => void) => {
      const copy = structuredClone(events);
      const args = copy[at].workflowExecutionUpdateAcceptedEventAttributes!.acceptedRequest!.input!.args!;
      const p = args.payloads![0];
      const value = JSON.parse(Buffer.from(p.data as string, 'base64').toString()) as Record<string, unknown>;
      change(value);
      p.data = Buffer.from(JSON.stringify(value)).toString('base64');
      return copy;
    };
    const live = { records: run.adjudicationsView(), head: run.status(now).decisionChain };
    const recased = verifyRunChain(chainHistory([{ events: edit(0, (v) => (v.caseId = 'INC-5')) }]), live);
    expect(recased.broken).toMatchObject({ seq: 1, decisionId: 'd1' });
    const reresult = verifyRunChain(chainHistory([{ events: edit(2, (v) => (v.result = { ok: false })) }]), live);
    expect(reresult.broken).toMatchObject({ seq: 1, decisionId: 'd1' });
    const third = verifyRunChain(chainHistory([{ events: edit(4, (v) => (v.decision = 'accept')) }]), live);
    expect(third.broken).toMatchObject({ seq: 3, decisionId: 'd3', why: 'its request does not give its digest' });
  });
});
