/**
 * One tool call of an agent, as a durable step: journaled as begun before it runs and with its
 * result after, so a crash in between is known. A tool the model invents or arguments that are not
 * JSON go back to the model as the tool's error; a long result is cut, with a note to the model.
 */
import { type JournalEntry, type ToolCall } from '../../../agent/types';
import type { Toolbox, ToolSpec } from '../../tools/types';
import type { AgentGateway } from './gateway';
export interface ToolStepContext {
    gateway: AgentGateway;
    toolbox: Toolbox | undefined;
    offered: ReadonlyMap<string, ToolSpec>;
    signal: AbortSignal;
    timeoutMs?: number;
    /** Unique per call across attempts: the request id of an add_tasks call. */
    callKey: (call: ToolCall) => string;
    redact: (text: string) => string;
}
/** What a call cut by a crash reads as, when its tool is not idempotent: it may or may not have taken effect. */
export declare const INTERRUPTED: string;
export declare function runToolCall(call: ToolCall, turn: number, step: ToolStepContext): Promise<{
    entry: Extract<JournalEntry, {
        kind: 'tool-result';
    }>;
    ms: number;
}>;
