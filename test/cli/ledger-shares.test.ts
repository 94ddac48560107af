import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { testClient, uniqueQueue } from '../helpers/env';
import { ledgerForTest, workerForTest } from '../helpers/scenario';
import { teamrun } from './teamrun-cli';

/** Three sleeps on `ledger`, in a run of `maxTokens` 10,000 over 5 teammates: a fair share of 2,000 each. */
const plan = (name: string, ledger: string, estimate?: { tokens: number }) => ({
  name,
  teammates: 5,
  budget: { ledger, maxTokens: 10_000 },
  tasks: ['a', 'b', 'c'].map((key) => ({
    key,
    ...(estimate ? { estimate } : {}),
    executor: { kind: 'sleep', ms: 10 },
  })),
});

describe('teamrun start on a shared ledger', () => {
  it("says when the ledger's maxTokens holds fewer of the run's fair shares than it would run at once", async ({
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const ledger = await ledgerForTest('shares', { maxTokens: 4_000 }, worker.taskQueue, onTestFinished);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-ledger-shares-'));
    const env = { TEAMRUN_TASK_QUEUE: worker.taskQueue };
    const started = async (name: string, estimate?: { tokens: number }) => {
      const file = path.join(dir, `${name}.yaml`);
      writeFileSync(file, stringify(plan(name, ledger, estimate)));
      const id = uniqueQueue(name);
      const result = await teamrun(['start', file, '--id', id], env);
      expect(result.code, result.stderr).toBe(0);
      const run = await (await testClient()).workflow.getHandle(id).result();
      expect(run.status).toBe('succeeded');
      return result.stderr;
    };
    expect(await started('shares')).toContain(
      `note: ledger ${ledger} holds maxTokens 4000; each of this run's 3 task(s) without an estimate holds about ` +
        "2000 tokens (a fair share of the run's maxTokens 10000 over 5 teammates) in its ledger slot, so at most 2 " +
        "run at once across the ledger's runs. Give them an `estimate`",
    );
    // Tasks that say what they reserve hold that: nothing to say.
    expect(await started('estimated', { tokens: 0 })).not.toContain('note: ledger');
  });
});
