import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { attemptBranch } from '../../src/activities/executors/agent-cli/worktree';

/** What git itself says of a branch name: valid or not. */
function gitAccepts(branch: string): boolean {
  try {
    execFileSync('git', ['check-ref-format', '--branch', branch], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

describe("an agent-cli attempt's branch name", () => {
  it('is teamrun/<run>/<key>/<token>, readable when the parts are plain', () => {
    expect(attemptBranch({ workflowId: 'coding-team-2026', taskKey: 'api', fencingToken: 3 })).toBe(
      'teamrun/coding-team-2026/api/3',
    );
  });

  it('is a valid ref name whatever the run id and key hold', () => {
    const awkward = [
      'my run/1',
      '..',
      '.hidden',
      '-dash',
      'a..b',
      'ends.',
      'x.lock',
      'a@{b}',
      'tilde~caret^colon:?*[\\',
      'é ü 中文',
      '/',
      ' ',
      'a'.repeat(500),
      'ctl\u0001\u007f',
    ];
    for (const workflowId of awkward) {
      for (const taskKey of ['api', ...awkward]) {
        const branch = attemptBranch({ workflowId, taskKey, fencingToken: 12 });
        expect(gitAccepts(branch), branch).toBe(true);
        expect(branch.split('/')).toHaveLength(4);
        expect(branch.endsWith('/12')).toBe(true);
      }
    }
  });
});
