/**
 * One declaration per tool (its zod input, what tools/list shows, its annotations, what it does)
 * and the one way every answer and refusal leaves the server: JSON text and structuredContent,
 * redacted; a refusal as `isError: true` whose text starts with its code and says what to do next.
 */
import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { TeamrunError } from '../errors';
import { parseControl } from '../plan/requests/control';
import { McpRefusal, type McpContext } from './context';

/** What a tool may do beside answering: report progress (when the client asked for it) and see a cancelled call. */
export interface ToolCall {
  progress(progress: number, message: string): Promise<void>;
  signal: AbortSignal;
}

export interface ToolSpec<S extends z.ZodType = z.ZodType> {
  name: string;
  title: string;
  description: string;
  /** Parses the arguments, bounds included; a problem is refused `invalid_request` (or `value_too_large`). */
  input: S;
  /** What tools/list shows when it says more than `input` parses (a plan's full schema, which the run checks). */
  listed?: z.ZodType;
  /** Else, the JSON Schema tools/list shows, as generated from the plan's schemas (src/plan/task-tool.ts). */
  listedJson?: () => Record<string, unknown>;
  annotations: ToolAnnotations;
  run(args: z.output<S>, ctx: McpContext, call: ToolCall): Promise<object>;
}

/** Keeps each tool's arguments typed by its own schema while the server holds them all in one list. */
export function defineTool<S extends z.ZodType>(spec: ToolSpec<S>): ToolSpec {
  return spec as unknown as ToolSpec;
}

/** Every tool names its run the same way: a Temporal workflow id. */
export const runId = z.string().min(1).max(1_000).describe('the run id (its Temporal workflow id)');

/** The JSON Schema tools/list gives for a tool: its input as a caller writes it (defaults optional). */
export function inputJsonSchema(tool: ToolSpec): { type: 'object'; [key: string]: unknown } {
  const schema = tool.listedJson
    ? tool.listedJson()
    : z.toJSONSchema(tool.listed ?? tool.input, { io: 'input', unrepresentable: 'any' });
  const { $schema: _dialect, ...rest } = schema as Record<string, unknown>;
  return { ...rest, type: 'object' };
}

/** As the run parses a control request: `adjudicate`'s fields keep their own codes (`invalid_decision`, ...). */
export function parseArguments(tool: ToolSpec, args: unknown): unknown {
  return parseControl(tool.input, args ?? {}, tool.name);
}

export function answer(ctx: McpContext, value: object): CallToolResult {
  const redacted = ctx.redactor.deep(value) as Record<string, unknown>;
  return { content: [{ type: 'text', text: JSON.stringify(redacted, null, 2) }], structuredContent: redacted };
}

export function refusal(ctx: McpContext, err: unknown): CallToolResult {
  const { code, message } = refusalOf(err);
  const said = message.startsWith(`${code}: `) ? message : `${code}: ${message}`;
  const hint = HINTS[code]?.(ctx);
  const text = ctx.redactor.text(hint ? `${said}. ${hint}` : said);
  return { content: [{ type: 'text', text }], isError: true };
}

function refusalOf(err: unknown): { code: string; message: string } {
  if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure)
    return { code: err.cause.type ?? 'rejected', message: err.cause.message };
  if (err instanceof WorkflowNotFoundError)
    return { code: 'not_found', message: `run "${err.workflowId}" is not open (it has closed, or never existed)` };
  if (err instanceof TeamrunError) return { code: err.code, message: err.message };
  const name = (err as Error)?.name ?? '';
  if (name === 'ServiceError' || name === 'ConnectionError' || name === 'TransportError')
    return { code: 'unavailable', message: `Temporal did not answer: ${(err as Error).message}` };
  return { code: 'internal_error', message: (err as Error)?.message ?? String(err) };
}

/** The sentence after a refusal's code: what an agent can do about it. */
const HINTS: Record<string, (ctx: McpContext) => string> = {
  forbidden: (ctx) =>
    `This server acts as "${ctx.actor}", which the run's governance.operators does not list: ask the run's owner ` +
    'to add it, or use a server started with an operator as its --actor',
  stale_attempt: () => "The task's attempt changed since that fencing token was read: call list_tasks and try again",
  not_active: () => 'The task has no running attempt (not started yet, or settled): list_tasks shows its status',
  already_interrupted: () => 'Another request already interrupted this attempt: it settles in adjudication',
  adjudication_not_required: () => 'The task is not waiting for a decision: run_status lists the pending adjudications',
  run_not_accepting_work: () =>
    'The run was aborted or stopped by its budget, so nothing new starts: decide accept or reject instead',
  evidence_mismatch: () => "The record's evidence changed: read it again with run_status",
  not_an_agent: () => 'steer_task reaches agent tasks only: interrupt_task takes over any other kind',
  value_too_large: () => 'Shorten the field named and call again',
  invalid_request: () => 'Fix the argument named and call again (tools/list has each schema)',
  TEAM_MAILBOX_CAPACITY_EXCEEDED: () => "The run's mailbox is full: send again once its tasks have read",
  unavailable: () => 'Check that the Temporal server and a teamrun worker are up (`teamrun doctor`), then retry',
};

/** Paging: an opaque cursor a list answer gives as `nextCursor`, holding where the next page starts. */
export const cursor = z.string().max(200).describe('nextCursor of the previous page; absent for the first page');

export function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ offset })).toString('base64url');
}

export function decodeCursor(value: string | undefined): number {
  if (value === undefined) return 0;
  try {
    const { offset } = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as { offset?: unknown };
    if (Number.isSafeInteger(offset) && (offset as number) >= 0) return offset as number;
  } catch {
    // Refused below.
  }
  throw new McpRefusal('invalid_request', 'cursor: not one this server gave (pass nextCursor as it came)');
}
