import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { Client, Connection } from '@temporalio/client';
import type {
  AbortRequest,
  AbortVerdict,
  InterruptRequest,
  MessagesPage,
  MessagesQuery,
  RunResult,
  SendMessageRequest,
  SendMessageVerdict,
  StatusView,
  WithIsoTimes,
} from '../../src/contract';
import * as contract from '../../src/contract';
import { teamRunHandle, type TeamRunHandle } from '../../src/client';
import { validatePlan } from '../../src/plan/validate';
import { TeamRun } from '../../src/team/run';
import { messageRules } from '../../src/workflows/handlers';
import { withIsoTimes } from '../../src/workflows/iso-times';
import { TEAM_RUN_MESSAGES } from '../../src/workflows/messages';

const dir = path.join(__dirname, '../../src/contract');

function startedRun(): TeamRun {
  const validation = validatePlan({ name: 'contract', tasks: [{ key: 'a', executor: { kind: 'noop' } }] });
  if (!validation.ok) throw new Error('plan');
  return TeamRun.start(validation.plan, 'wf-contract', 0);
}

describe('the contract module (src/contract)', () => {
  it('holds types only: the workflow bundle may import it and gets no code', () => {
    expect(Object.keys(contract)).toEqual([]);
    for (const file of readdirSync(dir)) {
      const source = readFileSync(path.join(dir, file), 'utf8');
      const edges = source.match(/^(import|export)\b[^;]*?\bfrom '[^']+';/gm) ?? [];
      for (const edge of edges) expect(edge, `${file}: ${edge}`).toMatch(/^(import|export) type\b/);
    }
  });

  it('is what the run answers: a status with ISO twins, and a result', () => {
    const run = startedRun();
    const status = withIsoTimes(run.status(5));
    expectTypeOf(status).toEqualTypeOf<WithIsoTimes<StatusView>>();
    expect(status.startedAtIso).toBe(new Date(0).toISOString());
    expectTypeOf(run.finish(10)).toEqualTypeOf<RunResult>();
  });
});

describe('the message table (src/workflows/messages.ts): each message declared once', () => {
  const table = Object.entries(TEAM_RUN_MESSAGES);
  const names = (type: 'query' | 'signal' | 'update') =>
    table.filter(([, m]) => m.definition.type === type).map(([, m]) => m.definition.name);

  it("holds CONTRACT.md's queries, signals and updates, each with the description the Web UI shows", () => {
    expect(names('query').sort()).toEqual(
      ['activeClaims', 'adjudications', 'budget', 'events', 'members', 'messages', 'status', 'tasks'].sort(),
    );
    expect(names('signal').sort()).toEqual(['abortRun', 'interruptTask']);
    expect(names('update').sort()).toEqual(
      [
        'abortRun',
        'addTasks',
        'adjudicate',
        'bindCase',
        'extendReservation',
        'interruptTask',
        'linkRun',
        'readInbox',
        'sendMessage',
        'reopenTask',
        'steerTask',
        'tightenBudget',
      ].sort(),
    );
    for (const [method, message] of table) expect(message.description.length, method).toBeGreaterThan(20);
  });

  it('gives every message a handler in the workflow: the rule of the run it calls', () => {
    const run = messageRules(startedRun(), () => 5);
    const rules: Record<string, unknown> = run;
    expect(Object.keys(rules).sort()).toEqual(Object.keys(TEAM_RUN_MESSAGES).sort());
    for (const [method, { definition }] of table) {
      const rule = rules[method];
      if (definition.type === 'update') expect(rule, method).toMatchObject({ validate: expect.any(Function) });
      else expect(rule, method).toBeTypeOf('function');
    }
    // A query's rule answers as the run does.
    expect(run.status().name).toBe('contract');
  });

  it('gives every message a method of the same name on the client handle, typed by its message', () => {
    // A lazy connection: nothing is dialled until a message is sent.
    const client = new Client({ connection: Connection.lazy({ address: '127.0.0.1:1' }) });
    const handle = teamRunHandle(client, 'wf-contract');
    for (const [method] of table) expect(handle[method as keyof TeamRunHandle], method).toBeTypeOf('function');
    expectTypeOf<TeamRunHandle['sendMessage']>().toEqualTypeOf<
      (request: SendMessageRequest) => Promise<SendMessageVerdict>
    >();
    expectTypeOf<TeamRunHandle['messages']>().toEqualTypeOf<(query?: MessagesQuery) => Promise<MessagesPage>>();
    expectTypeOf<TeamRunHandle['abort']>().toEqualTypeOf<(request?: AbortRequest) => Promise<AbortVerdict>>();
    expectTypeOf<TeamRunHandle['signalInterrupt']>().toEqualTypeOf<(request: InterruptRequest) => Promise<void>>();
  });
});
