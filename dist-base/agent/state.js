"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.JournalState = exports.JournalRefused = void 0;
/**
 * The journal's rules, pure: who may write (the greatest fencing token seen, never a lower one),
 * what fits (the transcript's bounds), and when a steer joins the conversation.
 */
const bytes_1 = require("../plan/bytes");
const types_1 = require("./types");
class JournalRefused extends Error {
    code;
    constructor(code, message) {
        super(message);
        this.code = code;
        this.name = 'JournalRefused';
    }
}
exports.JournalRefused = JournalRefused;
const ENTRY_KINDS = new Set(['start', 'inbox', 'steer', 'model', 'tool-start', 'tool-result']);
class JournalState {
    snapshot;
    bytes;
    finished = false;
    constructor(snapshot) {
        this.snapshot = snapshot;
        this.bytes = (0, bytes_1.jsonBytes)(snapshot.entries);
    }
    /** Checks a request before it reaches history (the update's validator). */
    validate(request) {
        if (typeof request !== 'object' || request === null || !Number.isSafeInteger(request.fencingToken))
            throw new JournalRefused('invalid_request', 'a journal request needs an integer fencingToken');
        if (request.fencingToken < this.snapshot.fencingToken) {
            throw new JournalRefused('stale_attempt', `fencing token ${request.fencingToken} is older than the journal's ${this.snapshot.fencingToken}`);
        }
        if (request.op === 'append') {
            if (!Array.isArray(request.entries) || request.entries.some((e) => !ENTRY_KINDS.has(e?.kind)))
                throw new JournalRefused('invalid_request', 'append takes entries of the known kinds');
            const size = (0, bytes_1.jsonBytes)(request.entries);
            if (size > types_1.JOURNAL_LIMITS.appendBytes || this.bytes + size > types_1.JOURNAL_LIMITS.transcriptBytes) {
                throw new JournalRefused('transcript_too_large', `the transcript would be ${this.bytes + size} bytes, over its ${types_1.JOURNAL_LIMITS.transcriptBytes}-byte bound`);
            }
        }
        else if (request.op === 'beginTurn') {
            if (!Number.isSafeInteger(request.turn) || request.turn < 1)
                throw new JournalRefused('invalid_request', 'beginTurn takes a turn number from 1');
        }
        else if (request.op !== 'open' && request.op !== 'finish') {
            throw new JournalRefused('invalid_request', 'op is one of open, append, beginTurn, finish');
        }
    }
    apply(request) {
        this.validate(request);
        this.snapshot.fencingToken = request.fencingToken;
        switch (request.op) {
            case 'open':
                // A steer now joins the next model call, which the opening attempt numbers from here.
                this.snapshot.turnOpen = this.snapshot.entries.filter((e) => e.kind === 'model').length;
                return { op: 'open', entries: this.snapshot.entries };
            case 'append':
                this.push(request.entries);
                return { op: 'append', bytes: this.bytes };
            case 'beginTurn': {
                // What waited joins this call; a steer from now on joins the next one.
                const steers = this.snapshot.pending.splice(0);
                this.push(steers.map((s) => ({ kind: 'steer', turn: request.turn, ...s })));
                this.snapshot.turnOpen = request.turn;
                return { op: 'beginTurn', steers };
            }
            case 'finish':
                this.finished = true;
                return { op: 'finish' };
        }
    }
    validateSteer(request) {
        if (typeof request?.text !== 'string' || !Number.isSafeInteger(request.fencingToken))
            throw new JournalRefused('invalid_request', 'a steer needs text and the attempt fencingToken');
        if (request.fencingToken < this.snapshot.fencingToken) {
            throw new JournalRefused('stale_attempt', `fencing token ${request.fencingToken} is older than the agent's ${this.snapshot.fencingToken}`);
        }
        if ((0, bytes_1.utf8Bytes)(request.text) > types_1.JOURNAL_LIMITS.steerBytes)
            throw new JournalRefused('value_too_large', `a steer's text is at most ${types_1.JOURNAL_LIMITS.steerBytes} bytes`);
        if (this.snapshot.pending.length >= types_1.JOURNAL_LIMITS.pendingSteers) {
            throw new JournalRefused('value_too_large', `${types_1.JOURNAL_LIMITS.pendingSteers} steers already wait for the agent's next model call`);
        }
    }
    /** Queues guidance for the next model call; answers which turn that is. */
    steer(request) {
        this.validateSteer(request);
        this.snapshot.pending.push({ text: request.text, actor: request.actor });
        return { turn: this.snapshot.turnOpen + 1 };
    }
    push(entries) {
        this.snapshot.entries.push(...entries);
        this.bytes += (0, bytes_1.jsonBytes)(entries);
    }
}
exports.JournalState = JournalState;
