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

/** Who teamrun's commits are by: set explicitly, so a worker needs no git identity configured. */
const TEAMRUN_GIT_IDENTITY = { name: 'teamrun', email: 'teamrun@localhost' } as const;
/**
 * Options every git command of an attempt's worktree runs with: none of the repository's hooks
 * (they are the user's, written for their own commits), no signing (no key on a worker).
 */
const QUIET_GIT = ['-c', 'core.hooksPath=/dev/null', '-c', 'commit.gpgSign=false', '-c', 'tag.gpgSign=false'];

/** What became of an attempt's work: on a branch, nothing to keep, or could not be kept (the directory stays). */
export type WorktreeWork =
  | { changes: 'committed'; branch: string; commit: string }
  | { changes: 'none' }
  | { changes: 'not-kept'; error: string };

/** The task output's fields for an attempt's worktree (docs/agent-clis.md). */
export interface WorktreeOutput {
  worktree: string;
  /** Whether the directory is still there after the attempt (keepWorktrees, or work that could not be kept). */
  worktreeKept: boolean;
  /** The commit the worktree started at, and the branch it came from when it continued one. */
  baseCommit: string;
  baseBranch?: string;
  changes: WorktreeWork['changes'];
  branch?: string;
  commit?: string;
  error?: string;
}

/**
 * One attempt's `git worktree` of `repo`, under the worker's temporary directory (teammates
 * editing one repository never share a directory), detached at the repository's HEAD, or, with
 * `continueFrom`, at the branch the task's last attempt left. `keep()` commits whatever the agent
 * changed to `teamrun/<run>/<key>/<fencing token>`; `close()` then removes the directory.
 */
export class AttemptWorktree {
  private work: Promise<WorktreeWork> | undefined;

  private constructor(
    readonly repo: string,
    readonly dir: string,
    readonly branch: string,
    readonly base: { commit: string; branch?: string },
  ) {}

  static async open(repo: string, attempt: AttemptIdentity, continueFrom: boolean): Promise<AttemptWorktree> {
    const run_ = createHash('sha256').update(attempt.workflowId).digest('hex').slice(0, 12);
    const safeKey = attempt.taskKey.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100);
    const root = path.join(os.tmpdir(), 'teamrun-worktrees', run_);
    const dir = path.join(root, `${safeKey}-${attempt.fencingToken}`);
    const branch = attemptBranch(attempt);
    mkdirSync(root, { recursive: true, mode: 0o700 });
    try {
      const previous = continueFrom ? await previousBranch(repo, attempt) : undefined;
      await git(repo, ['worktree', 'add', '--detach', dir, previous ? `refs/heads/${previous}` : 'HEAD']);
      const commit = (await git(dir, ['rev-parse', 'HEAD'])).trim();
      return new AttemptWorktree(repo, dir, branch, { commit, ...(previous ? { branch: previous } : {}) });
    } catch (err) {
      throw new ExecutorError(
        `worktree: could not add a git worktree of ${repo} at ${dir}: ${gitMessage(err)} ` +
          `(worktree: true needs cwd inside a git repository with at least one commit)`,
        { nonRetryable: true, type: 'TeamAgentCliWorktree' },
      );
    }
  }

  /** Commits the attempt's changes (tracked, and untracked files git does not ignore) to its own branch; once. */
  keep(attempt: AttemptIdentity): Promise<WorktreeWork> {
    this.work ??= this.commit(attempt).catch((err: unknown) => ({
      changes: 'not-kept' as const,
      error: gitMessage(err),
    }));
    return this.work;
  }

  /** The output's fields, once `keep` has run. */
  async output(keepDir: boolean): Promise<WorktreeOutput> {
    const work = await (this.work ?? Promise.resolve<WorktreeWork>({ changes: 'not-kept', error: 'not committed' }));
    return {
      worktree: this.dir,
      worktreeKept: keepDir || work.changes === 'not-kept',
      baseCommit: this.base.commit,
      ...(this.base.branch ? { baseBranch: this.base.branch } : {}),
      ...work,
    };
  }

  /** Keeps the work if not yet done, then removes the directory unless `keepDir` or the work could not be kept. */
  async close(attempt: AttemptIdentity, keepDir: boolean): Promise<void> {
    const work = await this.keep(attempt);
    if (keepDir || work.changes === 'not-kept') return;
    try {
      await git(this.repo, ['worktree', 'remove', '--force', this.dir]);
    } catch {
      // Already gone, or half made: prune forgets what no longer exists.
      await git(this.repo, ['worktree', 'prune']).catch(() => undefined);
    }
  }

  private async commit(attempt: AttemptIdentity): Promise<WorktreeWork> {
    await git(this.dir, ['add', '--all']);
    const staged = (await git(this.dir, ['status', '--porcelain', '--untracked-files=no'])).trim() !== '';
    if (staged) {
      const message =
        `teamrun: ${attempt.taskKey} attempt ${attempt.attempt} (fencing token ${attempt.fencingToken})\n\n` +
        `run ${attempt.workflowId}\n`;
      await git(this.dir, ['commit', '--quiet', '--no-verify', '--allow-empty-message', '-m', message]);
    }
    const commit = (await git(this.dir, ['rev-parse', 'HEAD'])).trim();
    // Nothing staged and no commit of the agent's own: nothing to keep.
    if (commit === this.base.commit) return { changes: 'none' };
    const branch = await this.freeBranch(commit);
    await git(this.dir, ['branch', branch, commit]);
    return { changes: 'committed', branch, commit };
  }

  /** The attempt's branch name, or, if a run of the same id left one, that name with the commit after it. */
  private async freeBranch(commit: string): Promise<string> {
    const taken = await git(this.dir, ['rev-parse', '--verify', '--quiet', `refs/heads/${this.branch}`]).then(
      () => true,
      () => false,
    );
    return taken ? `${this.branch}-${commit.slice(0, 12)}` : this.branch;
  }
}

/** Characters a ref name component may hold here (git's rules are wider; these are always safe). */
function refComponent(text: string, max: number): string {
  const safe = text
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/\.{2,}/g, '_')
    .slice(0, max)
    .replace(/^[.-]+/, '_')
    .replace(/(\.lock)+$/i, '_lock')
    .replace(/\.+$/, '_');
  return safe || '_';
}

/**
 * `teamrun/<run>/<key>/<fencing token>`, each part made a valid ref name component (characters
 * other than letters, digits, `.`, `_` and `-` become `_`; no `..`, no leading `.` or `-`, no
 * trailing `.` or `.lock`; the run at most 80 characters, the key at most 100).
 */
export function attemptBranch(attempt: Pick<AttemptIdentity, 'workflowId' | 'taskKey' | 'fencingToken'>): string {
  return `${branchPrefix(attempt)}/${attempt.fencingToken}`;
}

function branchPrefix(attempt: Pick<AttemptIdentity, 'workflowId' | 'taskKey'>): string {
  return `teamrun/${refComponent(attempt.workflowId, 80)}/${refComponent(attempt.taskKey, 100)}`;
}

/** The branch of the task's latest earlier attempt in `repo` (highest fencing token below this one's), if any. */
async function previousBranch(repo: string, attempt: AttemptIdentity): Promise<string | undefined> {
  const prefix = branchPrefix(attempt);
  const refs = await git(repo, ['for-each-ref', '--format=%(refname:short)', `refs/heads/${prefix}/`]);
  let best: { token: number; branch: string } | undefined;
  for (const branch of refs.split('\n').filter(Boolean)) {
    const token = Number(/^(\d+)(?:-[0-9a-f]+)?$/.exec(branch.slice(prefix.length + 1))?.[1]);
    if (!Number.isSafeInteger(token) || token >= attempt.fencingToken) continue;
    if (!best || token > best.token) best = { token, branch };
  }
  return best?.branch;
}

async function git(cwd: string, args: string[]): Promise<string> {
  const { stdout } = await run('git', [...QUIET_GIT, '-C', cwd, ...args], {
    timeout: GIT_TIMEOUT_MS,
    maxBuffer: 1024 * 1024,
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: TEAMRUN_GIT_IDENTITY.name,
      GIT_AUTHOR_EMAIL: TEAMRUN_GIT_IDENTITY.email,
      GIT_COMMITTER_NAME: TEAMRUN_GIT_IDENTITY.name,
      GIT_COMMITTER_EMAIL: TEAMRUN_GIT_IDENTITY.email,
      // Never a prompt (credentials, an editor) on a worker.
      GIT_TERMINAL_PROMPT: '0',
      GIT_EDITOR: 'true',
    },
  });
  return stdout;
}

function gitMessage(err: unknown): string {
  const stderr = (err as { stderr?: unknown }).stderr;
  const text = typeof stderr === 'string' && stderr.trim() ? stderr.trim() : (err as Error).message;
  return text.slice(0, 500);
}
