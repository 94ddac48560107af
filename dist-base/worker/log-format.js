"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.oneLineLogFunction = oneLineLogFunction;
exports.plain = plain;
exports.terminalLogger = terminalLogger;
exports.installTerminalLogger = installTerminalLogger;
const worker_1 = require("@temporalio/worker");
const stop_channel_1 = require("./stop-channel");
/** The log attributes worth a terminal line; the rest (the task token above all) stays out. */
const KEPT = ['activityId', 'workflowId', 'taskQueue'];
/**
 * One line per log entry: time, level, message, the attempt's activity id (`<key>#<token>`) and
 * run, and an error's message. The SDK's default prints every attribute of an activity, task
 * token included, over a dozen lines, for something as ordinary as an interrupted attempt.
 */
function oneLineLogFunction(entry) {
    const { level, timestampNanos, message, meta } = entry;
    // The stop queue's worker polls activities only, on purpose (stop-channel.ts): its lifecycle
    // lines ("No workflows registered" and the like) are noise unless something fails.
    if (level !== 'ERROR' && typeof meta?.taskQueue === 'string' && (0, stop_channel_1.isStopQueue)(meta.taskQueue))
        return;
    // teamrun registers no Nexus services: the SDK's line saying so is noise as well.
    if (level === 'INFO' && message.startsWith('No Nexus services registered'))
        return;
    const at = new Date(Number(timestampNanos / 1000000n)).toISOString();
    const fields = [];
    for (const key of KEPT)
        if (typeof meta?.[key] === 'string')
            fields.push(`${key}=${meta[key]}`);
    const error = meta?.error ?? meta?.failure;
    if (error !== undefined)
        fields.push(`error=${JSON.stringify(error instanceof Error ? error.message : String(error))}`);
    process.stderr.write(plain(`${at} [${level}] ${message}${fields.length ? ` (${fields.join(' ')})` : ''}`) + '\n');
}
/** ANSI escape sequences (colours, cursor moves), which a log file or a pipe shows as raw bytes. */
// oxlint-disable-next-line no-control-regex -- matching the escape character is the point
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;
/** A log line without terminal escapes: the one-line format has no colours of its own. */
function plain(line) {
    return line.replace(ANSI, '');
}
/** A logger for the worker's terminal: one line per entry, or the SDK's full detail at DEBUG and TRACE. */
function terminalLogger(level) {
    return level === 'DEBUG' || level === 'TRACE'
        ? new worker_1.DefaultLogger(level)
        : new worker_1.DefaultLogger(level, oneLineLogFunction);
}
/**
 * Installs the terminal logger as the Temporal runtime's, once
 * per process (with the runtime's other options, e.g. metrics).
 * The SDK core's own warnings (a workflow task the server refused, e.g. for missing search
 * attributes) are forwarded to it: printed by the core itself they carry colour escapes even
 * into a file or a pipe.
 */
function installTerminalLogger(level = 'INFO', options = {}) {
    const logging = { filter: (0, worker_1.makeTelemetryFilterString)({ core: 'WARN', other: 'ERROR' }), forward: {} };
    worker_1.Runtime.install({
        logger: terminalLogger(level),
        ...options,
        telemetryOptions: { logging, ...options.telemetryOptions },
    });
}
