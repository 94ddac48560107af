/**
 * The journal's entries as the conversation the model is sent, and what the loop reads from them:
 * how many model calls were answered, which tool calls of the last answer have no result yet,
 * what `teamrun__set_output` set, and whether the agent already gave its final answer.
 */
import type { AssistantMessage, JournalEntry, ToolCall } from '../../../agent/types';
export declare class Transcript {
    /** Model calls answered, by every attempt. */
    turns: number;
    /** Tool calls run (with a result), by every attempt. */
    toolCalls: number;
    /** The last value `teamrun__set_output` set, if any. */
    output: {
        value: unknown;
    } | undefined;
    private lastModel;
    private readonly started;
    private readonly finished;
    readonly entries: JournalEntry[];
    constructor(entries: JournalEntry[]);
    add(entry: JournalEntry): void;
    /** The answer that ended the loop: the last model call asked for no tool. */
    get finalAnswer(): AssistantMessage | undefined;
    /** The last answer's tool calls still without a result, each with whether one had begun (a crash cut it). */
    pendingCalls(): Array<{
        call: ToolCall;
        begun: boolean;
    }>;
    /** The conversation in OpenAI's shape. */
    messages(): unknown[];
}
/** A call's arguments as an object; anything else (not JSON, not an object) is `{}`. */
export declare function parseArgs(text: string | undefined): Record<string, unknown>;
