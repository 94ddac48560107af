/**
 * The journal's rules, pure: who may write (the attempt whose worker confirmed its open, proving
 * each later write with its hash chain; never a lower fencing token than one seen), what fits (the
 * transcript's bounds), and when a steer joins the conversation.
 */
import { jsonBytes, utf8Bytes } from '../plan/bytes';
import { AttemptProofSchema } from '../plan/requests/caller';
import { follows, isLink } from './chain';
import {
  JOURNAL_LIMITS,
  type JournalAnswer,
  type JournalEntry,
  type JournalRefusal,
  type JournalRequest,
  type JournalSnapshot,
  type SteerRequest,
} from './types';

export class JournalRefused extends Error {
  constructor(
    readonly code: JournalRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'JournalRefused';
  }
}

const ENTRY_KINDS: ReadonlySet<string> = new Set(['start', 'inbox', 'steer', 'model', 'tool-start', 'tool-result']);

export class JournalState {
  private bytes: number;
  finished = false;

  constructor(readonly snapshot: JournalSnapshot) {
    this.bytes = jsonBytes(snapshot.entries);
  }

  /**
   * Checks a request before it reaches history (the update's validator). `unproven`: the rules of a
   * journal recorded before JOURNAL_PROOF_PATCH, replayed as they ran (the token alone decides).
   */
  validate(request: JournalRequest, unproven = false): void {
    if (typeof request !== 'object' || request === null || !Number.isSafeInteger(request.fencingToken))
      throw new JournalRefused('invalid_request', 'a journal request needs an integer fencingToken');
    if (request.fencingToken < this.snapshot.fencingToken) {
      throw new JournalRefused(
        'stale_attempt',
        `fencing token ${request.fencingToken} is older than the journal's ${this.snapshot.fencingToken}`,
      );
    }
    if (request.op === 'append') {
      this.validateEntries(request.op, request.entries);
    } else if (request.op === 'beginTurn') {
      if (!Number.isSafeInteger(request.turn) || request.turn < 1)
        throw new JournalRefused('invalid_request', 'beginTurn takes a turn number from 1');
      if (request.entries !== undefined) this.validateEntries(request.op, request.entries);
    } else if (request.op === 'finish') {
      if (request.entries !== undefined) this.validateEntries(request.op, request.entries);
    } else if (request.op !== 'open') {
      throw new JournalRefused('invalid_request', 'op is one of open, append, beginTurn, finish');
    }
    if (!unproven) this.checkProof(request);
  }

  /**
   * Applies a checked request; an `open` only once the worker its proof names confirmed it. The
   * chain's head moves to the anchor (open) or to the link the write carried.
   */
  apply(request: JournalRequest, unproven = false): JournalAnswer {
    this.validate(request, unproven);
    this.snapshot.fencingToken = request.fencingToken;
    if (!unproven) this.snapshot.chain = request.op === 'open' ? request.anchor : request.link;
    switch (request.op) {
      case 'open':
        // A steer now joins the next model call, which the opening attempt numbers from here.
        this.snapshot.turnOpen = this.snapshot.entries.filter((e) => e.kind === 'model').length;
        return { op: 'open', entries: this.snapshot.entries };
      case 'append':
        this.push(request.entries);
        return { op: 'append', bytes: this.bytes };
      case 'beginTurn': {
        // What the attempt owed (the last tool results) first; then what waited joins this call, and a steer from
        // now on joins the next one.
        if (request.entries?.length) this.push(request.entries);
        const steers = this.snapshot.pending.splice(0);
        this.push(steers.map((s): JournalEntry => ({ kind: 'steer', turn: request.turn, ...s })));
        this.snapshot.turnOpen = request.turn;
        return { op: 'beginTurn', steers, ...(this.snapshot.mail !== undefined ? { mail: this.snapshot.mail } : {}) };
      }
      case 'finish':
        if (request.entries?.length) this.push(request.entries);
        this.finished = true;
        return { op: 'finish' };
    }
  }

  /** Entries to append (an append's, or those a beginTurn or finish carries): known kinds, within the bounds. */
  private validateEntries(op: string, entries: unknown): void {
    if (!Array.isArray(entries) || entries.some((e: JournalEntry | undefined) => !ENTRY_KINDS.has(e?.kind as string)))
      throw new JournalRefused('invalid_request', `${op} takes entries of the known kinds`);
    const size = jsonBytes(entries);
    if (size > JOURNAL_LIMITS.appendBytes || this.bytes + size > JOURNAL_LIMITS.transcriptBytes) {
      throw new JournalRefused(
        'transcript_too_large',
        `the transcript would be ${this.bytes + size} bytes, over its ${JOURNAL_LIMITS.transcriptBytes}-byte bound`,
      );
    }
  }

  /** Only the attempt's worker opens (anchor and gateway proof), and only its chain's next link writes. */
  private checkProof(request: JournalRequest): void {
    if (request.op === 'open') {
      if (!isLink(request.anchor) || !AttemptProofSchema.safeParse(request.attempt).success) {
        throw new JournalRefused(
          'unproven',
          "open needs the attempt's hash-chain anchor (64 hex chars) and its worker's proof { queue, nonce }",
        );
      }
      return;
    }
    if (request.fencingToken !== this.snapshot.fencingToken || !follows(this.snapshot.chain, request.link)) {
      throw new JournalRefused(
        'unproven',
        `${request.op}: not the next link of the hash chain that attempt ${request.fencingToken} ` +
          "opened this journal with (only that attempt's worker writes here)",
      );
    }
  }

  /** `unproven`: as a journal recorded before JOURNAL_PROOF_PATCH checked a steer (no worker's proof). */
  validateSteer(request: SteerRequest, unproven = false): void {
    if (typeof request?.text !== 'string' || !Number.isSafeInteger(request.fencingToken))
      throw new JournalRefused('invalid_request', 'a steer needs text and the attempt fencingToken');
    if (!unproven && !AttemptProofSchema.safeParse(request.attempt).success) {
      throw new JournalRefused(
        'unproven',
        "a steer reaches an agent through its run (steerTask), whose worker's proof { queue, nonce } it carries",
      );
    }
    if (request.fencingToken < this.snapshot.fencingToken) {
      throw new JournalRefused(
        'stale_attempt',
        `fencing token ${request.fencingToken} is older than the agent's ${this.snapshot.fencingToken}`,
      );
    }
    if (utf8Bytes(request.text) > JOURNAL_LIMITS.steerBytes)
      throw new JournalRefused('value_too_large', `a steer's text is at most ${JOURNAL_LIMITS.steerBytes} bytes`);
    if (this.snapshot.pending.length >= JOURNAL_LIMITS.pendingSteers) {
      throw new JournalRefused(
        'value_too_large',
        `${JOURNAL_LIMITS.pendingSteers} steers already wait for the agent's next model call`,
      );
    }
  }

  /** Queues guidance for the next model call (a proven steer: once its worker confirmed it); answers which turn. */
  steer(request: SteerRequest, unproven = false): { turn: number } {
    this.validateSteer(request, unproven);
    this.snapshot.pending.push({ text: request.text, actor: request.actor });
    return { turn: this.snapshot.turnOpen + 1 };
  }

  /**
   * The run's word that mail came for the task, up to message `upTo` (a hint, anyone's to send: at worst the agent
   * reads its inbox once more for nothing). Only a greater id is kept.
   */
  mailHint(upTo: unknown): void {
    if (typeof upTo !== 'number' || !Number.isSafeInteger(upTo) || upTo < 1) return;
    this.snapshot.mail = Math.max(this.snapshot.mail ?? 0, upTo);
  }

  private push(entries: JournalEntry[]): void {
    this.snapshot.entries.push(...entries);
    this.bytes += jsonBytes(entries);
  }
}
