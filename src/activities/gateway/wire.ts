/**
 * The attempt gateway's edges (src/activities/gateway/gateway.ts): a task's request as its attempt sends it to the
 * run, the run's refusal as the task reads it, a bounded request body, and the `teamrun` launcher its tasks find.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { JournalSquatted, JournalUnavailable } from './journal';
import { CONFIRMATIONS_BUSY } from '../../team/governance';
import type { AttemptIdentity, AttemptMessage } from '../interface';

/** The request as the task's attempt sends it: who it is comes from the gateway, never from the task. */
export function asTask(
  message: AttemptMessage,
  id: AttemptIdentity,
  body: Record<string, unknown>,
): Record<string, unknown> {
  const given = (fields: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  const { taskKey: key, fencingToken } = id;
  switch (message) {
    case 'sendMessage':
      return given({ from: key, fencingToken, to: body.to, subject: body.subject, body: body.body });
    case 'readInbox':
      return given({ key, fencingToken, peek: body.peek });
    case 'addTasks':
      return given({
        tasks: body.tasks,
        parent: key,
        fencingToken,
        requestId: body.requestId ?? `${key}#${fencingToken}`,
      });
    case 'extendReservation':
      return given({ key, fencingToken, tokens: body.tokens, usd: body.usd, turns: body.turns });
    case 'linkRun':
      return given({ key, fencingToken, runId: body.runId, actor: body.actor });
  }
}

/** How long the gateway waits before it sends a request its run refused `busy` again (halved to doubled at random). */
export const BUSY_RETRY_MS = 300;

/** The run refused the request `busy`: too many confirmations wait on queues it does not know yet. */
export function busy(err: unknown): boolean {
  return (
    err instanceof WorkflowUpdateFailedError &&
    err.cause instanceof ApplicationFailure &&
    err.cause.type === CONFIRMATIONS_BUSY
  );
}

export function refusalOf(err: unknown, message: string): { status: number; code: string; message: string } {
  if (err instanceof JournalSquatted) return { status: 409, code: 'TEAM_JOURNAL_SQUATTED', message: err.message };
  if (err instanceof JournalUnavailable) return { status: 403, code: 'TEAM_ATTEMPT_NO_JOURNAL', message: err.message };
  if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure) {
    const code = err.cause.type ?? 'rejected';
    const text = err.cause.message.startsWith(`${code}: `)
      ? err.cause.message.slice(code.length + 2)
      : err.cause.message;
    return { status: 422, code, message: text };
  }
  if (err instanceof WorkflowNotFoundError)
    return { status: 404, code: 'not_found', message: `${message}: the task's run is not open` };
  return {
    status: 502,
    code: 'TEAM_ATTEMPT_GATEWAY_FAILED',
    message: `${message}: the worker could not reach the run: ${(err as Error)?.message ?? String(err)}`,
  };
}

/** The body, refused past `limit` bytes (a RangeError) without reading the rest. */
export async function readBounded(req: http.IncomingMessage, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new RangeError('too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A `teamrun` launcher for this worker's own CLI (compiled beside this code, or the sources'
 * bin/teamrun.js in a clone), so a task finds the same teamrun as its worker, whatever is on PATH.
 */
export function writeLauncher(dir: string): string | null {
  const cli = __filename.endsWith('.js')
    ? path.join(__dirname, '..', '..', 'main.js')
    : path.join(__dirname, '..', '..', '..', 'bin', 'teamrun.js');
  if (!existsSync(cli)) return null;
  const bin = path.join(dir, 'bin');
  mkdirSync(bin, { mode: 0o700 });
  const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
  writeFileSync(path.join(bin, 'teamrun'), `#!/bin/sh\nexec ${quote(process.execPath)} ${quote(cli)} "$@"\n`, {
    mode: 0o700,
  });
  return bin;
}
