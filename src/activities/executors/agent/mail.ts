/**
 * What joins an agent's conversation between model calls besides steers: mail that came while it worked (peeked from
 * the run before each call, journaled with the last id it holds so a retry joins none twice), and, with an
 * `outputSchema`, an answer's mismatches sent back for the model to fix (`OUTPUT_SCHEMA_LIMITS.agentFixes` times,
 * then the task fails `TEAM_TASK_OUTPUT_INVALID`).
 */
import type { JournalEntry } from '../../../agent/types';
import type { ReadInboxAnswer } from '../../../contract';
import { OUTPUT_INVALID, OUTPUT_SCHEMA_LIMITS } from '../../../plan/output-schema';
import { outputProblems } from '../../output-check';
import { inboxPrompt } from '../llm';
import { ExecutorError, type ExecutorContext } from '../types';
import type { AgentGateway } from './gateway';
import type { Transcript } from './transcript';

type InboxEntry = Extract<JournalEntry, { kind: 'inbox' }>;

/** The mail not yet in the conversation, as one entry; undefined when none. */
export function mailEntry(
  messages: ExecutorContext['inbox'],
  transcript: Transcript,
  redact: (text: string) => string,
): InboxEntry | undefined {
  const fresh = messages.filter((m) => m.id > transcript.mailUpTo);
  if (!fresh.length) return undefined;
  return { kind: 'inbox', content: redact(inboxPrompt(fresh)), upTo: Math.max(...fresh.map((m) => m.id)) };
}

/** Mail that came for the task while it worked, read without taking it (the conversation's `upTo` says what it had). */
export async function newMail(
  gateway: AgentGateway,
  transcript: Transcript,
  redact: (text: string) => string,
): Promise<InboxEntry | undefined> {
  const { messages } = (await gateway.post('readInbox', { peek: true })) as ReadInboxAnswer;
  return mailEntry(messages ?? [], transcript, redact);
}

/** The final answer as the task's output: set_output's value, else the answer's JSON with a schema, else its text. */
export function answerOutput(transcript: Transcript, content: string, schema: Record<string, unknown> | undefined) {
  if (transcript.output) return transcript.output.value;
  if (!schema) return { content };
  const text = content
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/\s*```$/, '');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { content };
  }
}

/**
 * The answer's output checked against the task's outputSchema: undefined when it matches; an entry sending the
 * problems back while fixes are left; else the failure.
 */
export function outputCheck(
  output: unknown,
  transcript: Transcript,
  schema: Record<string, unknown> | undefined,
): InboxEntry | undefined {
  if (!schema) return undefined;
  const problems = outputProblems(schema, output);
  if (!problems.length) return undefined;
  if (transcript.outputFixes >= OUTPUT_SCHEMA_LIMITS.agentFixes) {
    throw new ExecutorError(
      `the output does not match the task's outputSchema after ${transcript.outputFixes} fixes: ${problems.join('; ')}`,
      { nonRetryable: true, type: OUTPUT_INVALID },
    );
  }
  const content =
    `Your output does not match the output schema of this task:\n${problems.map((p) => `- ${p}`).join('\n')}\n` +
    'Answer again with only the JSON value (or call teamrun__set_output with it). The schema: ' +
    JSON.stringify(schema).slice(0, 4_000);
  return { kind: 'inbox', content, check: 'output' };
}
