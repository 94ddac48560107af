import type { AttemptIdentity } from '../../interface';
/**
 * A `git worktree` of `repo` for one attempt, detached at the repository's HEAD, under the
 * worker's temporary directory: teammates editing one repository never share a directory.
 */
export declare function addWorktree(repo: string, attempt: AttemptIdentity): Promise<string>;
/** Removes the attempt's worktree (changes in it included) and git's record of it. */
export declare function removeWorktree(repo: string, dir: string): Promise<void>;
