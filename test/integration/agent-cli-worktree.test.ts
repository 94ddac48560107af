import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'vitest';
import { startRun, testConfig } from '../helpers/env';
import { workerForTest, type OnTestFinished } from '../helpers/scenario';
import { tempDir } from './takeover-helpers';

const standins = path.resolve(__dirname, '../helpers/agent-clis');

// No git identity anywhere but teamrun's own: no global or system config for this file's processes.
const noConfig = path.join(tempDir('agent-cli-gitconfig'), 'empty');
writeFileSync(noConfig, '');
process.env.GIT_CONFIG_GLOBAL = noConfig;
process.env.GIT_CONFIG_NOSYSTEM = '1';

interface WorktreeOutput {
  content: string;
  worktree: string;
  worktreeKept: boolean;
  baseCommit: string;
  baseBranch?: string;
  changes: 'committed' | 'none' | 'not-kept';
  branch?: string;
  commit?: string;
}

async function cliWorker(finished: OnTestFinished, keepWorktrees = false) {
  const agentClis = { gemini: { command: path.join(standins, 'gemini'), allowArgs: [], env: {}, keepWorktrees } };
  return workerForTest({ config: testConfig({ agentClis }) }, finished);
}

/**
 * A repository with one commit, whose hooks would fail any commit and leave a mark if they ran,
 * and with no identity of its own.
 */
function repository() {
  const repo = tempDir('agent-cli-work');
  const git = (...args: string[]) => execFileSync('git', ['-C', repo, ...args], { stdio: 'pipe' }).toString();
  git('init', '-q');
  git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'start');
  const marker = path.join(repo, '..', `${path.basename(repo)}-hook-ran`);
  for (const hook of ['pre-commit', 'commit-msg', 'post-commit']) {
    const file = path.join(repo, '.git', 'hooks', hook);
    writeFileSync(file, `#!/bin/sh\necho ${hook} >> '${marker}'\nexit 1\n`);
    chmodSync(file, 0o755);
  }
  return { repo, git, marker };
}

describe.concurrent("agent-cli worktree: the attempt's work is kept on a branch", () => {
  it('the change is committed to the branch the output names, by teamrun, no hook run; the directory is removed', async ({
    expect,
    onTestFinished,
  }) => {
    const worker = await cliWorker(onTestFinished);
    const { repo, git, marker } = repository();
    const head = git('rev-parse', 'HEAD').trim();
    const workflowId = `wt run/${Date.now()}..x`;
    const handle = await startRun(
      {
        name: 'agent-cli-keep',
        tasks: [
          {
            key: 'api',
            executor: { kind: 'agent-cli', cli: 'gemini', prompt: 'add it [write]', cwd: repo, worktree: true },
          },
          {
            key: 'idle',
            executor: { kind: 'agent-cli', cli: 'gemini', prompt: 'look only', cwd: repo, worktree: true },
          },
        ],
      },
      worker.taskQueue,
      workflowId,
    );
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    const api = result.tasks.find((t) => t.key === 'api')!.output as WorktreeOutput;
    const safeRun = `wt_run_${workflowId.slice('wt run/'.length).replace('..', '_')}`;
    expect(api).toMatchObject({
      changes: 'committed',
      branch: `teamrun/${safeRun}/api/1`,
      baseCommit: head,
      worktreeKept: false,
    });
    expect(git('rev-parse', `refs/heads/${api.branch}`).trim()).toBe(api.commit);
    expect(git('show', `${api.branch}:standin-change.txt`)).toBe('add it [write]\n');
    expect(git('log', '-1', '--format=%an <%ae>|%cn <%ce>|%P', api.branch!).trim()).toBe(
      `teamrun <teamrun@localhost>|teamrun <teamrun@localhost>|${head}`,
    );
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(api.worktree)).toBe(false);
    // The user's checkout is as it was.
    expect(git('rev-parse', 'HEAD').trim()).toBe(head);
    expect(existsSync(path.join(repo, 'standin-change.txt'))).toBe(false);

    const idle = result.tasks.find((t) => t.key === 'idle')!.output as WorktreeOutput;
    expect(idle).toMatchObject({ changes: 'none', baseCommit: head, worktreeKept: false });
    expect(idle.branch).toBeUndefined();
    expect(git('branch', '--list', 'teamrun/*').trim().split('\n')).toHaveLength(1);
    expect(git('worktree', 'list').trim().split('\n')).toHaveLength(1);
  });

  it("worktree: continue: a retry starts from the failed attempt's branch; keepWorktrees keeps both directories", async ({
    expect,
    onTestFinished,
  }) => {
    const worker = await cliWorker(onTestFinished, true);
    const { repo, git } = repository();
    const head = git('rev-parse', 'HEAD').trim();
    const handle = await startRun(
      {
        name: 'agent-cli-continue',
        tasks: [
          {
            key: 'fix',
            retry: { maxAttempts: 2, backoffMs: 100 },
            executor: {
              kind: 'agent-cli',
              cli: 'gemini',
              prompt: 'fix it [write] [flaky]',
              cwd: repo,
              worktree: 'continue',
            },
          },
        ],
      },
      worker.taskQueue,
    );
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    const fix = result.tasks[0];
    expect(fix.attempts).toBe(2);
    const output = fix.output as WorktreeOutput;
    const first = output.branch!.replace(/\/2$/, '/1');
    expect(output).toMatchObject({ changes: 'committed', baseBranch: first, worktreeKept: true });
    expect(output.branch).toMatch(/^teamrun\/.+\/fix\/2$/);
    // The failed attempt's work, then the retry's on top of it.
    expect(git('show', `${first}:standin-change.txt`)).toBe('fix it [write] [flaky]\n');
    expect(git('show', `${output.branch}:standin-change.txt`)).toBe('fix it [write] [flaky]\n'.repeat(2));
    expect(git('rev-parse', `${first}^`).trim()).toBe(head);
    expect(output.baseCommit).toBe(git('rev-parse', first).trim());
    expect(existsSync(output.worktree)).toBe(true);
    expect(git('worktree', 'list').trim().split('\n')).toHaveLength(3);
    for (const line of git('worktree', 'list', '--porcelain')
      .split('\n')
      .filter((l) => l.startsWith('worktree ')))
      if (line.slice('worktree '.length) !== repo) git('worktree', 'remove', '--force', line.slice('worktree '.length));
  });
});
