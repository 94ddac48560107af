import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { TeamPlanInput } from '../../src/plan/schema';
import { teamrun } from '../cli/teamrun-cli';
import { temporalAddress, temporalBinary, waitFor } from '../helpers/env';
import { runForTest, workerForTest } from '../helpers/scenario';

/** Four approvals nobody decided yet: each becomes an adjudication at once, decided by hand below. */
const plan = (name: string): TeamPlanInput => ({
  name,
  teammates: 1,
  tasks: ['a', 'b', 'c', 'd'].map((key) => ({ key, executor: { kind: 'approval', prompt: `ship ${key}?` } })),
});

type Event = Record<string, unknown> & { eventType: string };
type PayloadJson = { metadata: { encoding: string }; data: string };

const decode = (p: PayloadJson) =>
  JSON.parse(Buffer.from(p.data, 'base64').toString('utf8')) as Record<string, unknown>;
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');

/** The request payload of each accepted update of `name`, in history order. */
function acceptedPayloads(events: Event[], name: string): PayloadJson[] {
  return events
    .map(
      (e) =>
        e.workflowExecutionUpdateAcceptedEventAttributes as
          { acceptedRequest: { input: { name: string; args: { payloads: PayloadJson[] } } } } | undefined,
    )
    .filter((a) => a?.acceptedRequest.input.name === name)
    .map((a) => a!.acceptedRequest.input.args.payloads[0]);
}

describe('adjudication cases and the decision chain', () => {
  it('verifies an untouched run, live and closed, and names the decision whose recorded payload was edited', async () => {
    const worker = await workerForTest();
    const handle = await runForTest(plan('decision-chain'), worker);
    const id = handle.workflowId;
    await waitFor('four pending approvals', async () => (await handle.adjudications()).length === 4 || undefined);

    // A case is bound once: the same case again is fine, another is refused with its code.
    const bound = await teamrun(['bind-case', id, 'a', 'TICKET-1', '--actor', 'ops']);
    expect(bound.stdout).toContain('a: case TICKET-1 bound');
    expect((await teamrun(['bind-case', id, 'a', 'TICKET-1'])).stdout).toContain('was bound already');
    const other = await teamrun(['bind-case', id, 'a', 'TICKET-9']);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('case_already_bound');

    await handle.adjudicate({ key: 'a', decision: 'accept', decisionId: 'dec-a', actor: 'ops', result: { ok: 1 } });
    const cli = await teamrun(['adjudicate', id, 'b', '--reject', '--decision-id', 'dec-b', '--case', 'TICKET-2']);
    expect(cli.code, cli.stderr).toBe(0);
    await handle.adjudicate({ key: 'c', decision: 'accept', decisionId: 'dec-c', reason: 'looked at it' });
    const records = await handle.adjudications();
    expect(records.find((r) => r.key === 'a')?.caseId).toBe('TICKET-1');
    expect(records.find((r) => r.key === 'b')?.caseId).toBe('TICKET-2');
    const links = ['a', 'b', 'c'].map((k) => records.find((r) => r.key === k)!.decision!.chain!);
    expect(links.map((l) => l.seq)).toEqual([1, 2, 3]);
    expect(links[1].prev).toBe(links[0].digest);
    expect((await handle.status()).decisionChain).toEqual({ seq: 3, head: links[2].digest });

    // Live: history's requests recompute the chain up to the run's own head.
    const live = await teamrun(['adjudications', id, '--verify']);
    expect(live.code, live.stderr).toBe(0);
    expect(live.stdout).toContain(`decision chain ok (run ${id}): 3 decision(s), head ${links[2].digest}`);
    expect(live.stdout).toContain('3 from their requests in history');

    await handle.adjudicate({ key: 'd', decision: 'reject', decisionId: 'dec-d' });
    expect((await handle.result()).decisionChain?.seq).toBe(4);
    const closed = await teamrun(['adjudications', id, '--verify', '--json']);
    expect(closed.code, closed.stderr).toBe(0);
    expect(JSON.parse(closed.stdout)).toMatchObject({ ok: true, seq: 4, verified: 4, broken: null });

    // The history as `temporal workflow show` writes it; untouched, it verifies.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-chain-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const shown = execFileSync(
      temporalBinary(),
      ['workflow', 'show', '-w', id, '--output', 'json', '--address', temporalAddress()],
      { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    const file = path.join(dir, 'history.json');
    writeFileSync(file, shown);
    const untouched = await teamrun(['adjudications', id, '--verify', '--history', file]);
    expect(untouched.code, untouched.stdout + untouched.stderr).toBe(0);
    expect(untouched.stdout).toContain('decision chain ok');

    // Doctored: the third decision's reason rewritten in the recorded request.
    const history = JSON.parse(shown) as { events: Event[] };
    const third = acceptedPayloads(history.events, 'adjudicate').find((p) => decode(p).decisionId === 'dec-c')!;
    third.data = encode({ ...decode(third), reason: 'nobody looked' });
    const doctored = path.join(dir, 'doctored.json');
    writeFileSync(doctored, JSON.stringify(history));
    const broken = await teamrun(['adjudications', id, '--verify', '--history', doctored]);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain('decision chain BROKEN');
    expect(broken.stdout).toContain('at decision 3 (decisionId dec-c)');
    expect(broken.stdout).toContain(`found    ${links[2].digest}`);
    expect(broken.stdout).toContain('2 decision(s) before it verified');

    // Doctored elsewhere: the case bound before the first decision, rewritten.
    const again = JSON.parse(shown) as { events: Event[] };
    const bind = acceptedPayloads(again.events, 'bindCase')[0];
    bind.data = encode({ ...decode(bind), caseId: 'TICKET-X' });
    const updatesCompleted = again.events.filter(
      (e) => e.eventType === 'EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED',
    );
    // The verdict of that bindCase names the case too: a forger edits both, as here.
    for (const e of updatesCompleted) {
      const success = (
        e.workflowExecutionUpdateCompletedEventAttributes as { outcome: { success?: { payloads: PayloadJson[] } } }
      ).outcome.success?.payloads[0];
      if (success && decode(success).caseId === 'TICKET-1')
        success.data = encode({ ...decode(success), caseId: 'TICKET-X' });
    }
    const recased = path.join(dir, 'recased.json');
    writeFileSync(recased, JSON.stringify(again));
    const caseBroken = await teamrun(['adjudications', id, '--verify', '--history', recased, '--json']);
    expect(caseBroken.code).toBe(1);
    expect(JSON.parse(caseBroken.stdout).broken).toMatchObject({ seq: 1, decisionId: 'dec-a' });
  });
});
