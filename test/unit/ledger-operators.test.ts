import { describe, expect, it } from 'vitest';
import { Ledger } from '../../src/ledger/rules';
import { ConfigureRequestSchema, LedgerOperatorsSchema } from '../../src/plan/requests/ledger';
import { LEASE, T0 } from '../helpers/ledger-rules';

const lose = (ledger: Ledger, attemptId: string) => {
  ledger.acquire({ attemptId, workflowId: 'run-a', reservation: { tokens: 100, usd: 0 }, leaseMs: LEASE }, T0);
  ledger.settle({ attemptId, usage: null, lost: { reservation: { tokens: 100, usd: 0 }, workflowId: 'run-a' } }, T0);
};

describe("a ledger's operators", () => {
  it('admits a forced loosening, a resolve and an abort-all only from an actor on the list', () => {
    const ledger = Ledger.create('shared', { maxTokens: 1_000 }, T0, ['alice', 'bob']);
    ledger.register({ workflowId: 'run-a' }, T0);
    lose(ledger, 'run-a/x/1');
    const before = ledger.snapshot();

    expect(ledger.checkConfigure({ limits: { maxTokens: 5_000 }, force: true, actor: 'mallory' })).toEqual({
      code: 'forbidden',
      message:
        'ledger shared: actor "mallory" is not one of the ledger\'s operators; ' +
        'only an operator may loosen its limits (maxTokens 1000 -> 5000)',
    });
    expect(ledger.checkOperator('mallory', 'resolve')?.code).toBe('forbidden');
    expect(ledger.checkOperator(undefined, 'abortAll')?.message).toContain('actor ""');
    expect(() => ledger.resolve({ release: true, actor: 'mallory' }, T0)).toThrow(/not one of the ledger's operators/);
    expect(() => ledger.abortAll({ actor: 'mallory' }, T0)).toThrow(/only an operator may abort every run/);
    expect(() => ledger.abortAll({}, T0)).toThrow(/forbidden|not one of/);
    expect(ledger.snapshot()).toEqual(before);

    // Tightening is open to anyone: it only makes the ledger safer.
    expect(ledger.checkConfigure({ limits: { maxTokens: 900 }, actor: 'mallory' })).toBeNull();
    expect(ledger.checkConfigure({ limits: { maxTokens: 5_000 }, force: true, actor: 'bob' })).toBeNull();
    expect(ledger.resolve({ release: true, actor: 'alice' }, T0)?.verdict.resolution.actor).toBe('alice');
    expect(ledger.abortAll({ actor: 'bob' }, T0).runs).toEqual(['run-a']);
  });

  it('keeps an unforced loosening loosening_refused, whoever asks', () => {
    const ledger = Ledger.create('shared', { maxUsd: 5 }, T0, ['alice']);
    expect(ledger.checkConfigure({ limits: { maxUsd: 6 }, actor: 'alice' })?.code).toBe('loosening_refused');
    expect(ledger.checkConfigure({ limits: { maxUsd: 6 }, actor: 'mallory' })?.code).toBe('loosening_refused');
  });

  it('refuses a list on a ledger created without one (whoever named it first would own it)', () => {
    const ledger = Ledger.create('shared', {}, T0);
    expect(ledger.status(T0).operators).toBeNull();
    expect(ledger.checkConfigure({ limits: {}, actor: 'mallory', operators: ['mallory'] })).toMatchObject({
      code: 'forbidden',
      message: expect.stringContaining('ledger shared was created without operators'),
    });
    expect(() => ledger.configure({ limits: {}, actor: 'mallory', operators: ['mallory'] }, T0)).toThrow(
      /created without operators/,
    );
    expect(ledger.status(T0).operators).toBeNull();
  });

  it('lets only an operator replace the list a ledger was created with', () => {
    const ledger = Ledger.create('shared', {}, T0, ['alice']);
    expect(ledger.checkConfigure({ limits: {}, actor: 'mallory', operators: ['mallory'] })).toMatchObject({
      code: 'forbidden',
      message: expect.stringContaining('only an operator may change its operators'),
    });
    // The same list again (as `ledger create` sends it on every call) changes nothing, so it needs nobody.
    expect(ledger.checkConfigure({ limits: {}, actor: 'mallory', operators: ['alice'] })).toBeNull();
    ledger.configure({ limits: {}, actor: 'alice', operators: ['alice', 'carol'] }, T0);
    expect(ledger.status(T0).operators).toEqual(['alice', 'carol']);
    const configured = ledger
      .status(T0)
      .recentEvents.filter((e) => e.type === 'ledger:configured')
      .at(-1);
    expect(configured).toMatchObject({ operators: ['alice', 'carol'], actor: 'alice' });
  });

  it('trusts any actor without a list, as before', () => {
    const ledger = Ledger.create('shared', { maxTokens: 1_000 }, T0);
    ledger.register({ workflowId: 'run-a' }, T0);
    lose(ledger, 'run-a/x/1');
    expect(ledger.checkConfigure({ limits: {}, force: true, actor: 'anyone' })).toBeNull();
    expect(ledger.resolve({ release: true, actor: 'anyone' }, T0)).not.toBeNull();
    expect(ledger.abortAll({}, T0).runs).toEqual(['run-a']);
    expect(ledger.snapshot()).not.toHaveProperty('operators');
  });

  it('carries the list across continue-as-new, and reads a snapshot from before operators as no list', () => {
    const ledger = Ledger.create('shared', {}, T0, ['alice']);
    const continued = new Ledger(ledger.snapshot());
    expect(continued.status(T0).operators).toEqual(['alice']);
    expect(continued.checkOperator('mallory', 'abortAll')?.code).toBe('forbidden');

    const { operators: _dropped, ...older } = ledger.snapshot();
    expect(new Ledger(older).status(T0).operators).toBeNull();
  });

  it('bounds the list: 1..64 names, each 1..200 characters, each once', () => {
    const issue = (operators: unknown) => {
      const parsed = ConfigureRequestSchema.safeParse({ limits: {}, operators });
      return parsed.success ? null : parsed.error.issues[0].message;
    };
    expect(issue([])).toBe('name at least one operator');
    expect(issue(['alice', 'alice'])).toBe('names an operator twice');
    expect(issue([''])).toMatch(/>=1 characters/);
    expect(issue(['x'.repeat(201)])).toMatch(/<=200 characters/);
    expect(issue(Array.from({ length: 65 }, (_, i) => `op${i}`))).toMatch(/<=64 items/);
    expect(LedgerOperatorsSchema.safeParse(Array.from({ length: 64 }, (_, i) => `op${i}`)).success).toBe(true);
  });
});
