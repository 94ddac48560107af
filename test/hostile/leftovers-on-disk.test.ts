import { existsSync, readFileSync, readdirSync, symlinkSync, utimesSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { GATEWAY_DIR_PREFIX, STARTING_GRACE_MS } from '../../src/activities/gateway/leftovers';
import { spawnWorkerProcess, startRun, uniqueQueue, waitFor } from '../helpers/env';
import { tempDir } from './executors-helpers';

/**
 * A worker killed with `kill -9` cannot remove what it keeps on disk: its gateway directory, and in it the inputs of
 * the attempts it ran (their dependency outputs, readable by every process of the worker's user). The next worker to
 * start on the host removes them; a live worker's directory is never touched.
 */
describe('what a killed worker leaves on disk', () => {
  it("the next worker to start removes a dead worker's gateway directory and its attempt's inputs, and no live one", async () => {
    // The workers' temporary directory is this test's own: no other test's worker removes the victim's directory first.
    const tmp = tempDir();
    const tsxCache = `tsx-${process.geteuid?.() ?? os.userInfo().username}`;
    symlinkSync(path.join(os.tmpdir(), tsxCache), path.join(tmp, tsxCache));
    const env = { TMPDIR: tmp };
    const gatewayDirs = () =>
      readdirSync(tmp)
        .filter((name) => name.startsWith(GATEWAY_DIR_PREFIX))
        .map((name) => path.join(tmp, name));
    // Long past the grace a starting worker gets: as if the directories had been there for a while.
    const age = (dir: string) => utimesSync(dir, new Date(), new Date(Date.now() - 2 * STARTING_GRACE_MS));

    const live = await spawnWorkerProcess({ taskQueue: uniqueQueue('disk-live'), identity: 'disk-live', env });
    onTestFinished(() => void live.child.kill('SIGKILL'));
    const [liveDir] = gatewayDirs();
    const taskQueue = uniqueQueue('disk-victim');
    const victim = await spawnWorkerProcess({ taskQueue, identity: 'disk-victim', env });
    onTestFinished(() => void victim.child.kill('SIGKILL'));
    const victimDir = gatewayDirs().find((dir) => dir !== liveDir)!;
    const handle = await startRun(
      {
        name: 'disk-leftovers',
        awaitAdjudication: false,
        tasks: [
          { key: 'produce', executor: { kind: 'shell', command: 'echo "::teamrun-output::\\"dep-output-7f3a\\""' } },
          {
            key: 'consume',
            dependsOn: ['produce'],
            executor: { kind: 'shell', command: `echo "$TEAMRUN_INPUTS_FILE" > ${tmp}/inputs-path; sleep 120` },
          },
        ],
      },
      taskQueue,
    );
    onTestFinished(async () => {
      if ((await handle.describe()).status.name === 'RUNNING') await handle.terminate('test finished');
    });
    const inputs = await waitFor(
      'the attempt to write where its inputs are',
      () => (existsSync(`${tmp}/inputs-path`) ? readFileSync(`${tmp}/inputs-path`, 'utf8').trim() : null),
      30_000,
      50,
    );
    // The inputs are in the victim's gateway directory, so they go with it.
    expect(inputs.startsWith(`${victimDir}${path.sep}`)).toBe(true);
    expect(readFileSync(inputs, 'utf8')).toContain('dep-output-7f3a');

    victim.child.kill('SIGKILL');
    await victim.exited;
    // Nothing removes them when the worker dies.
    expect(existsSync(inputs)).toBe(true);
    age(victimDir);
    age(liveDir);

    const next = await spawnWorkerProcess({ taskQueue: uniqueQueue('disk-next'), identity: 'disk-next', env });
    onTestFinished(() => void next.child.kill('SIGKILL'));
    expect(existsSync(victimDir)).toBe(false);
    expect(next.output()).toContain('removed what 1 worker(s) that died on this host left on disk');
    // The live worker's directory stays, and so does the new worker's own.
    expect(existsSync(path.join(liveDir, 'gateway.sock'))).toBe(true);
    expect(gatewayDirs()).toHaveLength(2);
  });
});
