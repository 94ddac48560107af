import type { Usage } from '../../../plan/schema';

/** What one event of a CLI's stream means to the attempt (an event may mean several, or nothing). */
export type CliEvent =
  | { kind: 'session'; id: string }
  /** A model message ended: its usage (charged at once) and the tools it asked for. */
  | { kind: 'turn'; usage: Usage; tools: string[] }
  /** `command`: what a shell tool (Claude Code's Bash, Codex's command, Gemini's run_shell_command) ran. */
  | { kind: 'tool-start'; id: string; name: string; command?: string }
  | { kind: 'tool-end'; id: string; ok: boolean }
  /** The newest assistant text: the output when the CLI ends without a result of its own. */
  | { kind: 'text'; text: string }
  /** The CLI's own final result; `costUsd` is its total for the whole run, when it reports one. */
  | { kind: 'result'; ok: boolean; content: string; error?: string; costUsd?: number };

export interface CliRequest {
  prompt: string;
  model?: string;
  /** The session to resume (a retry of a task whose earlier attempt left one). */
  resume?: string;
  /** The plan's extra arguments, already checked against the worker's `allowArgs`. */
  args: string[];
}

/** How the CLI is started: its arguments, and the prompt on stdin when the CLI reads it there. */
export interface CliInvocation {
  args: string[];
  stdin?: string;
}

/**
 * One CLI's headless streaming format. A parser is made per attempt (a stream has state: the
 * message in progress, the tools in flight).
 */
export interface CliAdapter {
  /** Whether a session can be resumed from another directory (else only from the one it ran in). */
  readonly resumeAnywhere: boolean;
  invocation(request: CliRequest): CliInvocation;
  parser(): CliParser;
}

export interface CliParser {
  /** The events one line of the stream (one JSON object) means; `null` for a type this adapter does not know. */
  parse(event: Record<string, unknown>): CliEvent[] | null;
  /** What the end of the stream means (a turn still open, a result the format implies). */
  end(): CliEvent[];
}

/** Reads `value` as a record (a JSON object), or an empty one. */
export function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** A non-negative count from the stream, or 0 (a stream is outside input: never trusted for a shape). */
export function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}

export function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
