"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.progressParts = progressParts;
exports.progressText = progressText;
exports.createProgress = createProgress;
const cli_progress_1 = require("cli-progress");
const format_1 = require("../format");
function progressParts(status) {
    const { stats, budget } = status;
    const limit = (max, show) => (max === undefined ? null : show(max));
    const detail = [
        `${stats.running} running`,
        `${stats.failed} failed`,
        `${status.pendingAdjudications} in adjudication`,
        `${(0, format_1.ofLimit)((0, format_1.count)(budget.used.tokens), limit(budget.limits.maxTokens, format_1.count))} tokens`,
        (0, format_1.ofLimit)((0, format_1.usd)(budget.used.usd), limit(budget.limits.maxUsd, format_1.usd)),
    ];
    if (status.state !== 'running')
        detail.push(status.state.replace(/_/g, ' '));
    if (budget.stopped)
        detail.push(`budget stopped: ${budget.reason}`);
    return { done: stats.succeeded + stats.failed + stats.skipped, total: stats.total, detail: detail.join(' · ') };
}
/** The progress of a run as one line of text (what the plain display prints). */
function progressText(status) {
    const { done, total, detail } = progressParts(status);
    return `${done}/${total} done · ${detail}`;
}
/**
 * Shows a run's progress: a live bar redrawn in place on a terminal; otherwise (CI logs, pipes)
 * plain lines, printed only when something changed.
 */
function createProgress(options = {}) {
    const stream = options.stream ?? process.stderr;
    const live = options.live ?? Boolean(stream.isTTY);
    return live ? liveProgress(stream) : plainProgress(stream, options.plainIntervalMs ?? 1_000);
}
function liveProgress(stream) {
    const bar = new cli_progress_1.SingleBar({
        stream,
        format: '{bar} {value}/{total} done · {detail}',
        barsize: 24,
        barCompleteChar: '█',
        barIncompleteChar: '░',
        hideCursor: true,
    });
    let started = false;
    return {
        update(status) {
            const { done, total, detail } = progressParts(status);
            if (!started) {
                bar.start(total, done, { detail });
                started = true;
                return;
            }
            bar.setTotal(total);
            bar.update(done, { detail });
        },
        stop() {
            if (started)
                bar.stop();
        },
    };
}
function plainProgress(stream, intervalMs) {
    let printed = '';
    let pending = '';
    let printedAt = 0;
    const print = (line) => {
        stream.write(`${line}\n`);
        printed = line;
        printedAt = Date.now();
    };
    return {
        update(status) {
            pending = progressText(status);
            if (pending !== printed && Date.now() - printedAt >= intervalMs)
                print(pending);
        },
        stop() {
            if (pending && pending !== printed)
                print(pending);
        },
    };
}
