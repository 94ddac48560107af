import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AttemptIdentity } from '../../interface';

/**
 * A CLI's session id, as an argument of `--resume`: what the CLIs print (UUIDs), never an option,
 * and bounded. Anything else from the stream is not taken.
 */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$/;

export function isSessionId(value: string): boolean {
  return SESSION_ID.test(value);
}

/**
 * The last session of a task's CLI on this worker, so that its next attempt (a retry, an
 * adjudicated retry) resumes it. Kept on the worker because the CLIs keep their sessions on the
 * machine they ran on (~/.claude, ~/.codex, ~/.gemini); the id is also in the attempt's output
 * and failure evidence, so a human deciding an adjudication sees it. Removed when the task succeeds.
 */
export class SessionStore {
  private readonly file: string;

  constructor(identity: Pick<AttemptIdentity, 'workflowId' | 'taskKey'>, cli: string, dir = defaultDir()) {
    const name = createHash('sha256').update(`${identity.workflowId}\0${identity.taskKey}\0${cli}`).digest('hex');
    this.file = path.join(dir, `${name.slice(0, 40)}.json`);
  }

  load(): { sessionId: string; cwd: string | null } | undefined {
    try {
      const saved = JSON.parse(readFileSync(this.file, 'utf8').slice(0, 8_192)) as {
        sessionId?: unknown;
        cwd?: unknown;
      };
      if (typeof saved.sessionId !== 'string' || !isSessionId(saved.sessionId)) return undefined;
      return { sessionId: saved.sessionId, cwd: typeof saved.cwd === 'string' ? saved.cwd : null };
    } catch {
      return undefined;
    }
  }

  save(sessionId: string, cwd: string | undefined): void {
    try {
      mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
      writeFileSync(this.file, JSON.stringify({ sessionId, cwd: cwd ?? null }), { mode: 0o600 });
    } catch {
      // Only a later resume is lost: the id is in the attempt's output all the same.
    }
  }

  remove(): void {
    rmSync(this.file, { force: true });
  }
}

function defaultDir(): string {
  return path.join(os.tmpdir(), `teamrun-agent-sessions-${os.userInfo().uid}`);
}
