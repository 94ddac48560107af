import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { AttemptIdentity } from '../../interface';
import { ExecutorError } from '../types';

const run = promisify(execFile);
const GIT_TIMEOUT_MS = 60_000;

/**
 * A `git worktree` of `repo` for one attempt, detached at the repository's HEAD, under the
 * worker's temporary directory: teammates editing one repository never share a directory.
 */
export async function addWorktree(repo: string, attempt: AttemptIdentity): Promise<string> {
  const run_ = createHash('sha256').update(attempt.workflowId).digest('hex').slice(0, 12);
  const safeKey = attempt.taskKey.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100);
  const root = path.join(os.tmpdir(), 'teamrun-worktrees', run_);
  const dir = path.join(root, `${safeKey}-${attempt.fencingToken}`);
  mkdirSync(root, { recursive: true, mode: 0o700 });
  try {
    await git(repo, ['worktree', 'add', '--detach', dir, 'HEAD']);
  } catch (err) {
    throw new ExecutorError(
      `worktree: could not add a git worktree of ${repo} at ${dir}: ${gitMessage(err)} ` +
        `(worktree: true needs cwd inside a git repository with at least one commit)`,
      { nonRetryable: true, type: 'TeamAgentCliWorktree' },
    );
  }
  return dir;
}

/** Removes the attempt's worktree (changes in it included) and git's record of it. */
export async function removeWorktree(repo: string, dir: string): Promise<void> {
  try {
    await git(repo, ['worktree', 'remove', '--force', dir]);
  } catch {
    // Already gone, or half made: prune forgets what no longer exists.
    await git(repo, ['worktree', 'prune']).catch(() => undefined);
  }
}

async function git(repo: string, args: string[]): Promise<void> {
  await run('git', ['-C', repo, ...args], { timeout: GIT_TIMEOUT_MS, maxBuffer: 1024 * 1024 });
}

function gitMessage(err: unknown): string {
  const stderr = (err as { stderr?: unknown }).stderr;
  const text = typeof stderr === 'string' && stderr.trim() ? stderr.trim() : (err as Error).message;
  return text.slice(0, 500);
}
