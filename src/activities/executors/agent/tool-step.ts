/**
 * One tool call of an agent, as a durable step: journaled as begun before it runs and with its
 * result after, so a crash in between is known. A tool the model invents or arguments that are not
 * JSON go back to the model as the tool's error; a long result is cut, with a note to the model.
 */
import { JOURNAL_LIMITS, type JournalEntry, type ToolCall } from '../../../agent/types';
import { toolAttributes } from '../../../telemetry/openinference';
import { inSpan } from '../../../telemetry/spans';
import type { ToolCallResult, Toolbox, ToolSpec } from '../../tools/types';
import type { AgentGateway } from './gateway';
import { callOwnTool, isOwnTool } from './own-tools';
import { delegate, isDelegateTool } from './delegate';

export interface ToolStepContext {
  gateway: AgentGateway;
  toolbox: Toolbox | undefined;
  offered: ReadonlyMap<string, ToolSpec>;
  signal: AbortSignal;
  timeoutMs?: number;
  /** Unique per call across attempts: the request id of an add_tasks call. */
  callKey: (call: ToolCall) => string;
  redact: (text: string) => string;
  /** The task's outputSchema: `teamrun__set_output` refuses a value that does not match it. */
  outputSchema?: Record<string, unknown>;
  /** The last mail id the conversation holds: `teamrun__read_inbox` does not hand those again. */
  mailHeld?: () => number;
}

/** What a call cut by a crash reads as, when its tool is not idempotent: it may or may not have taken effect. */
export const INTERRUPTED =
  'interrupted: the worker running this tool call stopped before it answered; it may or may not have taken ' +
  'effect, and it was not run again. Check before repeating it.';

export async function runToolCall(
  call: ToolCall,
  turn: number,
  step: ToolStepContext,
): Promise<{ entry: Extract<JournalEntry, { kind: 'tool-result' }>; ms: number }> {
  const started = Date.now();
  const name = call.function.name;
  // With tracing on, a tool call is a span (GenAI conventions: `execute_tool <name>`) under the attempt's.
  const result = await inSpan(
    `execute_tool ${name}`,
    {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': name,
      'gen_ai.tool.call.id': call.id,
      ...toolAttributes(name),
    },
    () => attempt(call, step),
  );
  const ms = Date.now() - started;
  const content = result.ok ? cut(step.redact(result.content)) : `error: ${cut(step.redact(result.error))}`;
  return { entry: { kind: 'tool-result', turn, id: call.id, name, ok: result.ok, content, ms }, ms };
}

async function attempt(call: ToolCall, step: ToolStepContext): Promise<ToolCallResult> {
  const name = call.function.name;
  const spec = step.offered.get(name);
  if (!spec) {
    const names = [...step.offered.keys()];
    return { ok: false, error: `no tool "${name}" here; the tools are: ${names.join(', ') || 'none'}` };
  }
  let args: unknown;
  try {
    args = JSON.parse(call.function.arguments);
  } catch (err) {
    return { ok: false, error: `the arguments are not JSON (${(err as Error).message}); send a JSON object` };
  }
  if (!args || typeof args !== 'object' || Array.isArray(args))
    return { ok: false, error: 'the arguments must be a JSON object' };
  const signal = step.timeoutMs ? AbortSignal.any([step.signal, AbortSignal.timeout(step.timeoutMs)]) : step.signal;
  if (isOwnTool(name) || isDelegateTool(name)) {
    const given = args as Record<string, unknown>;
    try {
      return isOwnTool(name)
        ? await callOwnTool(name, given, step.gateway, step.callKey(call), step.outputSchema, step.mailHeld?.())
        : await delegate(name, given, step.gateway, step.callKey(call));
    } catch (err) {
      if (step.signal.aborted) throw err;
      return { ok: false, error: `${name} failed: ${(err as Error).message}` };
    }
  }
  if (!step.toolbox) return { ok: false, error: `no tool "${name}" on this worker` };
  return step.toolbox.call(name, args, { signal, timeoutMs: step.timeoutMs });
}

/** A result within its bound, with a note that says it was cut. */
function cut(text: string): string {
  const max = JOURNAL_LIMITS.toolResultChars;
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n[teamrun: this result was cut from ${text.length} to ${max} characters]`;
}
