"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.addWorktree = addWorktree;
exports.removeWorktree = removeWorktree;
const node_child_process_1 = require("node:child_process");
const node_crypto_1 = require("node:crypto");
const node_fs_1 = require("node:fs");
const node_os_1 = __importDefault(require("node:os"));
const node_path_1 = __importDefault(require("node:path"));
const node_util_1 = require("node:util");
const types_1 = require("../types");
const run = (0, node_util_1.promisify)(node_child_process_1.execFile);
const GIT_TIMEOUT_MS = 60_000;
/**
 * A `git worktree` of `repo` for one attempt, detached at the repository's HEAD, under the
 * worker's temporary directory: teammates editing one repository never share a directory.
 */
async function addWorktree(repo, attempt) {
    const run_ = (0, node_crypto_1.createHash)('sha256').update(attempt.workflowId).digest('hex').slice(0, 12);
    const safeKey = attempt.taskKey.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100);
    const root = node_path_1.default.join(node_os_1.default.tmpdir(), 'teamrun-worktrees', run_);
    const dir = node_path_1.default.join(root, `${safeKey}-${attempt.fencingToken}`);
    (0, node_fs_1.mkdirSync)(root, { recursive: true, mode: 0o700 });
    try {
        await git(repo, ['worktree', 'add', '--detach', dir, 'HEAD']);
    }
    catch (err) {
        throw new types_1.ExecutorError(`worktree: could not add a git worktree of ${repo} at ${dir}: ${gitMessage(err)} ` +
            `(worktree: true needs cwd inside a git repository with at least one commit)`, { nonRetryable: true, type: 'TeamAgentCliWorktree' });
    }
    return dir;
}
/** Removes the attempt's worktree (changes in it included) and git's record of it. */
async function removeWorktree(repo, dir) {
    try {
        await git(repo, ['worktree', 'remove', '--force', dir]);
    }
    catch {
        // Already gone, or half made: prune forgets what no longer exists.
        await git(repo, ['worktree', 'prune']).catch(() => undefined);
    }
}
async function git(repo, args) {
    await run('git', ['-C', repo, ...args], { timeout: GIT_TIMEOUT_MS, maxBuffer: 1024 * 1024 });
}
function gitMessage(err) {
    const stderr = err.stderr;
    const text = typeof stderr === 'string' && stderr.trim() ? stderr.trim() : err.message;
    return text.slice(0, 500);
}
