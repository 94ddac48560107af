"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.readTranscript = readTranscript;
exports.renderTranscript = renderTranscript;
/**
 * An agent task's transcript as `teamrun logs RUN KEY` prints it, read from the task's journal
 * (src/agent). Redacted when journaled: the worker's secrets never reached it.
 */
const client_1 = require("@temporalio/client");
const messages_1 = require("../agent/messages");
const types_1 = require("../agent/types");
/** The journal of `key`, or null when the task has none (not an agent, or never started). */
async function readTranscript(client, workflowId, key) {
    try {
        return await client.workflow.getHandle((0, types_1.journalId)(workflowId, key)).query(messages_1.transcriptQuery);
    }
    catch (err) {
        if (err instanceof client_1.WorkflowNotFoundError)
            return null;
        throw err;
    }
}
/** One line or block per step: model, tool and system steps told apart by their tag. */
function renderTranscript(journal) {
    const lines = [
        `transcript (journal ${(0, types_1.journalId)(journal.runWorkflowId, journal.key)}, token ${journal.fencingToken}):`,
    ];
    for (const entry of journal.entries)
        lines.push(renderEntry(entry));
    if (journal.pending.length)
        lines.push(`[steer] ${journal.pending.length} waiting for the next model call`);
    return lines.join('\n');
}
function renderEntry(entry) {
    switch (entry.kind) {
        case 'start':
            return entry.messages.map((m) => `[${m.role}] ${m.content}`).join('\n');
        case 'inbox':
            return `[inbox] ${entry.content}`;
        case 'steer':
            return `[steer, turn ${entry.turn}] ${entry.actor ?? 'an operator'}: ${entry.text}`;
        case 'model': {
            const calls = (entry.message.tool_calls ?? []).map((c) => `${c.function.name}(${c.function.arguments})`);
            const tokens = entry.usage ? ` (${entry.usage.inputTokens ?? 0} in, ${entry.usage.outputTokens ?? 0} out)` : '';
            return [
                `[model, turn ${entry.turn}]${tokens} ${entry.message.content ?? ''}`.trimEnd(),
                ...calls.map((c) => `  -> ${c}`),
            ].join('\n');
        }
        case 'tool-start':
            return `[tool, turn ${entry.turn}] ${entry.name} started`;
        case 'tool-result': {
            const how = entry.ok ? 'ok' : 'failed';
            return `[tool, turn ${entry.turn}] ${entry.name} ${how} (${entry.ms} ms): ${entry.content}`;
        }
    }
}
