import type { SpecSchema } from '../executors/define';
import type { AttemptIdentity } from '../interface';
import type { ToolCallResult } from './types';
/** What a custom tool's `run` gets besides its arguments: the attempt calling it, fencing token included. */
export interface ToolContext extends AttemptIdentity {
    /** Aborted when the call times out (`toolTimeoutMs`) or its attempt is stopped. */
    signal: AbortSignal;
}
/** A custom tool as a worker holds it, whatever its arguments' type. */
export interface CustomTool {
    readonly description?: string;
    readonly idempotent: boolean;
    /** JSON Schema of the arguments (an object), as the model is shown it. */
    readonly parameters: Record<string, unknown>;
    /** Checks the arguments, runs the tool, and answers as a tool call does: never a throw. */
    invoke(args: unknown, ctx: ToolContext): Promise<ToolCallResult>;
}
/** A tool made by `defineTool`: its `run` typed by the schema that checks its arguments. */
export interface DefinedTool<Args> extends CustomTool {
    readonly argsSchema: SpecSchema<Args>;
    readonly run: (args: Args, ctx: ToolContext) => Promise<unknown>;
}
/**
 * A custom tool for agents, typed by a zod (v4) object schema of its arguments; pass it as
 * `createWorker({ tools: { <name>: tool } })`. The model is shown the schema as JSON Schema (zod's
 * `toJSONSchema`); arguments it refuses go back to the model as a tool error naming each field.
 * `run`'s answer is the result the model reads (a string as is, anything else as JSON), a throw
 * its error. `ctx.fencingToken` is the calling attempt's: fence writes with it (`teamrun/fenced`).
 *
 * ```ts
 * const note = defineTool(z.object({ text: z.string() }), async ({ text }, ctx) => {
 *   await store.write(ctx.fencingToken, 'notes', text);
 *   return 'saved';
 * }, { description: 'Saves a note', idempotent: true });
 * createWorker({ tools: { notes__save: note } });
 * ```
 */
export declare function defineTool<Args>(argsSchema: SpecSchema<Args>, run: (args: Args, ctx: ToolContext) => Promise<unknown>, options?: {
    description?: string;
    idempotent?: boolean;
}): DefinedTool<Args>;
