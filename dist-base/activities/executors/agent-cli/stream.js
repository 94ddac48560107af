"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.shellQuote = shellQuote;
exports.runCli = runCli;
const node_child_process_1 = require("node:child_process");
const output_stream_1 = require("../output-stream");
/** Single-quoted for /bin/sh: the CLI starts through the shell kind's containment, which runs a command line. */
function shellQuote(words) {
    return words.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ');
}
/**
 * Runs an agent CLI contained as a shell task is (a cgroup or its process tree), reading its
 * stdout line by line as it comes. A stop (the attempt cancelled, its timeout, `stop()`) sends
 * SIGINT first, so the CLI can save its session, then kills everything after `killGraceMs`.
 */
function runCli(how) {
    const { processes, redactor } = how;
    const keepBytes = how.logTailBytes + redactor.margin;
    const stdoutTail = new output_stream_1.StreamCapture({ keepBytes, maxLineBytes: how.maxLineBytes });
    const stderrTail = new output_stream_1.StreamCapture({ keepBytes, maxLineBytes: how.maxLineBytes });
    let stoppedBy = null;
    let killTimer;
    let stopRequested = () => undefined;
    const done = new Promise((resolve) => {
        const lines = new LineSplitter(how.maxLineBytes);
        let chain = Promise.resolve();
        const feed = (line) => {
            chain = chain.then(() => how.onLine(line)).catch(() => undefined);
        };
        let child;
        try {
            child = (0, node_child_process_1.spawn)('/bin/sh', processes.argv(`exec ${shellQuote(how.argv)}`), {
                cwd: how.cwd,
                env: how.env,
                detached: true,
                stdio: [how.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
            });
        }
        catch (err) {
            processes.dispose();
            resolve({ ...ended(null, null), spawnError: err.message });
            return;
        }
        if (child.pid !== undefined)
            processes.started(child.pid);
        if (how.stdin !== undefined) {
            child.stdin.on('error', () => undefined);
            child.stdin.end(how.stdin);
        }
        const stop = (why) => {
            if (stoppedBy)
                return;
            stoppedBy = why;
            void processes.signal('SIGINT').catch(() => undefined);
            killTimer = setTimeout(() => void processes.signal('SIGKILL').catch(() => undefined), how.killGraceMs);
        };
        stopRequested = stop;
        const onAbort = () => stop('cancelled');
        how.signal.addEventListener('abort', onAbort, { once: true });
        if (how.signal.aborted)
            onAbort();
        const timeout = how.timeoutMs
            ? setTimeout(() => stop(`timed out after ${how.timeoutMs} ms`), how.timeoutMs)
            : undefined;
        child.stdout.on('data', (chunk) => {
            stdoutTail.push(chunk);
            lines.push(chunk, feed);
        });
        child.stderr.on('data', (chunk) => stderrTail.push(chunk));
        let spawnError;
        child.on('error', (err) => (spawnError = err.message));
        // Whatever the CLI left behind (holding its pipes open, or not) ends with it.
        child.on('exit', () => {
            void processes
                .alive()
                .then((left) => (left ? processes.signal('SIGKILL') : undefined))
                .catch(() => undefined);
        });
        child.on('close', (code, signal) => {
            lines.end(feed);
            clearTimeout(timeout);
            how.signal.removeEventListener('abort', onAbort);
            void chain.finally(() => {
                clearTimeout(killTimer);
                processes.dispose();
                resolve({ ...ended(code, signal), ...(spawnError ? { spawnError } : {}) });
            });
        });
        function ended(code, signal) {
            // These tails hand no lines over (the stream is read by `lines`): nothing to wait for.
            void stdoutTail.end();
            void stderrTail.end();
            return {
                code,
                signal,
                stoppedBy,
                longLines: lines.longLines,
                logs: {
                    stdout: stdoutTail.tail(how.logTailBytes, redactor),
                    stderr: stderrTail.tail(how.logTailBytes, redactor),
                    stdoutBytes: stdoutTail.total,
                    stderrBytes: stderrTail.total,
                },
            };
        }
    });
    return { done, stop: (why) => stopRequested(why) };
}
/** Splits a byte stream into lines of at most `max` bytes; longer ones are skipped and counted. */
class LineSplitter {
    max;
    longLines = 0;
    parts = [];
    bytes = 0;
    skipping = false;
    constructor(max) {
        this.max = max;
    }
    push(chunk, onLine) {
        let at = 0;
        while (at < chunk.length) {
            const newline = chunk.indexOf(0x0a, at);
            const piece = chunk.subarray(at, newline === -1 ? chunk.length : newline);
            if (!this.skipping) {
                this.bytes += piece.length;
                if (this.bytes > this.max) {
                    this.skipping = true;
                    this.longLines++;
                    this.parts = [];
                }
                else {
                    this.parts.push(piece);
                }
            }
            if (newline === -1)
                return;
            this.flush(onLine);
            at = newline + 1;
        }
    }
    end(onLine) {
        if (this.bytes > 0)
            this.flush(onLine);
    }
    flush(onLine) {
        if (!this.skipping)
            onLine(Buffer.concat(this.parts).toString('utf8').replace(/\r$/, ''));
        this.parts = [];
        this.bytes = 0;
        this.skipping = false;
    }
}
