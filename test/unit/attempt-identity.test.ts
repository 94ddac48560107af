import { describe, expect, it } from 'vitest';
import { callerOf } from '../../src/plan/requests/caller';
import { AttemptConfirmations, MAX_PENDING_CONFIRMATIONS } from '../../src/team/governance';
import { codeOf, runOf, task } from '../helpers/team-run';

const proof = (nonce = 'n'.repeat(32)) => ({ queue: 'q/stop/w1/abc', nonce });

describe('a request that claims to be a running task', () => {
  it('under governance, a fencing token alone is a person: a non-operator is forbidden, an operator or the attempt is not', () => {
    const run = runOf([task('spawner', { allowSpawn: true }), task('b')], { governance: { operators: ['alice'] } });
    const [claim] = run.claim(0);
    const token = claim.fencingToken;
    const added = {
      tasks: [{ key: 'x', executor: { kind: 'noop' as const } }],
      parent: 'spawner',
      fencingToken: token,
    };
    const validate = (request: Record<string, unknown>) => codeOf(() => run.validateAddTasks(request));
    expect(validate({ ...added, requestId: 'r1' })).toBe('forbidden');
    expect(validate({ ...added, requestId: 'r1', actor: 'mallory' })).toBe('forbidden');
    expect(validate({ ...added, requestId: 'r1', actor: 'alice' })).toBe('accepted');
    expect(validate({ ...added, requestId: 'r1', attempt: proof() })).toBe('accepted');

    const send = (request: Record<string, unknown>) =>
      codeOf(() => run.validateSendMessage({ from: 'spawner', fencingToken: token, to: 'b', body: 1, ...request }));
    expect(send({})).toBe('forbidden');
    expect(send({ attempt: proof() })).toBe('accepted');
    // A stale token is stale whoever sends it.
    expect(send({ fencingToken: token + 7, attempt: proof() })).toBe('stale_attempt');

    const read = (request: Record<string, unknown>) =>
      codeOf(() => run.validateReadInbox({ key: 'spawner', fencingToken: token, ...request }));
    expect(read({})).toBe('forbidden');
    expect(read({ actor: 'alice' })).toBe('accepted');
    expect(read({ attempt: proof() })).toBe('accepted');
  });

  it('without governance anyone is an operator: a token alone still works as before', () => {
    const run = runOf([task('a'), task('b')]);
    const [claim] = run.claim(0);
    expect(run.sendMessage({ from: 'a', fencingToken: claim.fencingToken, to: 'b', body: 1 }, 1).ok).toBe(true);
  });

  it('a malformed proof is refused with the field named', () => {
    const run = runOf([task('a'), task('b')]);
    const [claim] = run.claim(0);
    const request = { from: 'a', fencingToken: claim.fencingToken, to: 'b', body: 1 };
    expect(codeOf(() => run.validateSendMessage({ ...request, attempt: { queue: 'q', nonce: 'short' } }))).toBe(
      'invalid_request',
    );
    expect(codeOf(() => run.validateSendMessage({ ...request, attempt: { ...proof(), extra: 1 } }))).toBe(
      'invalid_request',
    );
  });
});

describe('confirmations a run waits for', () => {
  it('a nonce is taken once, and no more than the bound wait at once', () => {
    const confirmations = new AttemptConfirmations();
    const caller = (nonce: string) => callerOf({ attempt: proof(nonce) }, 'sendMessage');
    const first = caller('a'.repeat(32));
    const queue = first.attempt!.queue;
    expect(codeOf(() => confirmations.check(first, 'sendMessage', queue))).toBe('accepted');
    confirmations.begin(first.attempt!, queue);
    confirmations.end(first.attempt!, true);
    expect(codeOf(() => confirmations.check(first, 'sendMessage', queue))).toBe('forbidden');
    const held = Array.from({ length: MAX_PENDING_CONFIRMATIONS }, (_, i) => proof(`p${String(i).padStart(31, '0')}`));
    for (const each of held) confirmations.begin(each, queue);
    expect(codeOf(() => confirmations.check(caller('b'.repeat(32)), 'sendMessage', queue))).toBe('forbidden');
    confirmations.end(held[0], true);
    expect(codeOf(() => confirmations.check(caller('b'.repeat(32)), 'sendMessage', queue))).toBe('accepted');
  });

  it('refuses at once a proof naming another queue than the attempt announced', () => {
    const confirmations = new AttemptConfirmations();
    const forged = callerOf({ attempt: { queue: 'nobody-polls', nonce: 'f'.repeat(32) } }, 'sendMessage');
    expect(codeOf(() => confirmations.check(forged, 'sendMessage', 'the-worker/stop/1'))).toBe('forbidden');
  });

  it('lets few confirmations wait on queues nobody vouched for: at most 2 in all, 1 per queue, the rest busy', () => {
    const confirmations = new AttemptConfirmations();
    const on = (queue: string, nonce: string) => callerOf({ attempt: { queue, nonce } }, 'sendMessage');
    const a = on('made-up-a', 'a'.repeat(32));
    confirmations.begin(a.attempt!);
    expect(codeOf(() => confirmations.check(on('made-up-a', 'b'.repeat(32)), 'sendMessage'))).toBe('busy');
    const c = on('made-up-c', 'c'.repeat(32));
    expect(codeOf(() => confirmations.check(c, 'sendMessage'))).toBe('accepted');
    confirmations.begin(c.attempt!);
    expect(codeOf(() => confirmations.check(on('made-up-d', 'd'.repeat(32)), 'sendMessage'))).toBe('busy');
    // The attempt's own announced queue, and a queue that confirmed before, still get through.
    expect(codeOf(() => confirmations.check(on('real', 'e'.repeat(32)), 'sendMessage', 'real'))).toBe('accepted');
    confirmations.end(a.attempt!, false);
    const vouched = on('vouched', 'g'.repeat(32));
    confirmations.begin(vouched.attempt!);
    confirmations.end(vouched.attempt!, true);
    expect(codeOf(() => confirmations.check(on('vouched', 'h'.repeat(32)), 'sendMessage'))).toBe('accepted');
    expect(codeOf(() => confirmations.check(on('made-up-d', 'i'.repeat(32)), 'sendMessage'))).toBe('accepted');
  });
});
