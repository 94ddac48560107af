import { type McpContext } from './context';
import type { ToolCall } from './tool';
export declare function runStatus(ctx: McpContext, args: {
    runId: string;
    cursor?: string;
    waitMs?: number;
}, call: ToolCall): Promise<object>;
