/**
 * The tools an `agent` attempt may call: the worker's MCP servers (`worker.mcpServers`) and its
 * custom tools (`createWorker({ tools })`), opened once per attempt so that each call carries that
 * attempt's fencing token. teamrun's own tools (`teamrun__*`) live in the agent loop, not here.
 */
import type { AttemptAccess, AttemptIdentity } from '../interface';

/** One tool as the model sees it (an OpenAI function) and as the loop treats it after a crash. */
export interface ToolSpec {
  /** `<server>__<tool>` (custom tools: their key in `createWorker({ tools })`). */
  name: string;
  description?: string;
  /** JSON Schema of the arguments. */
  parameters: Record<string, unknown>;
  /** Safe to run again after a crash interrupted it (MCP `idempotentHint`, or `defineTool`'s option). */
  idempotent: boolean;
}

export type ToolCallResult = { ok: true; content: string } | { ok: false; error: string };

/** The tools of one attempt. */
export interface Toolbox {
  /**
   * The tools these patterns (`<server>__<tool>` or `<server>__*`) name; an unknown name is an error
   * with a did-you-mean.
   */
  resolve(patterns: readonly string[]): Promise<ToolSpec[]>;
  /** Runs one call; a tool failure, a dead server or a timeout is `{ ok: false }`, never a throw. */
  call(name: string, args: unknown, options: { signal: AbortSignal; timeoutMs?: number }): Promise<ToolCallResult>;
  /** Stops what was started for this attempt (stdio servers). */
  close(): Promise<void>;
}

/**
 * What an attempt's toolbox is opened for: the attempt, its stop signal, and how its own processes reach the worker's
 * attempt gateway (its stdio MCP servers with `attemptAccess: true` get it, so a `teamrun mcp` so marked starts runs
 * as the attempt).
 */
export type ToolAttempt = AttemptIdentity & { signal: AbortSignal; access?: AttemptAccess };

/** The worker's tools, opened for one attempt. */
export type ToolboxFactory = (attempt: ToolAttempt) => Promise<Toolbox>;
