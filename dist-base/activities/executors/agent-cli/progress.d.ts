import { UsageRecords } from '../../pricing';
import type { ExecutorContext } from '../types';
import type { CliEvent } from './adapter';
/** The answer kept as the task's output, at most (outputs travel through history; the bound is 64 KiB of JSON). */
export declare const MAX_CONTENT_CHARS: number;
/**
 * What one attempt's stream has said so far: its session, its turns and their usage (charged to
 * the run as each turn ends), its tool calls (as `agent:tool` events), its answer and its result.
 */
export declare class CliProgress {
    private readonly ctx;
    private readonly cli;
    /** The CLI reports its run's total cost with its result: a turn of an unpriced model waits for it. */
    private readonly reportsCost;
    private readonly onSession;
    sessionId: string | undefined;
    content: string;
    result: Extract<CliEvent, {
        kind: 'result';
    }> | undefined;
    turns: number;
    toolCalls: number;
    unknown: number;
    notJson: number;
    readonly unknownTypes: string[];
    /** The run refused more budget: the attempt is being stopped. */
    refused: boolean;
    readonly usage: UsageRecords;
    private readonly tools;
    constructor(ctx: ExecutorContext, cli: string, 
    /** The CLI reports its run's total cost with its result: a turn of an unpriced model waits for it. */
    reportsCost: boolean, onSession: (id: string) => void);
    unknownType(type: unknown): void;
    apply(event: CliEvent): Promise<void>;
    private turn;
    /** The CLI's own total: what the turns' prices did not already charge. */
    private costOfRun;
    private charge;
}
