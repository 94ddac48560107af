import { execFile } from 'node:child_process';

/** The bare baseline's trivial activity: what a user who writes the fan-out by hand would run for a `noop` task. */
export interface BareActivities {
  bareNoop(key: string): Promise<Record<string, never>>;
  /** The bare counterpart of a `sleep` task, for the 1,000-teammate comparison. */
  bareSleep(key: string, ms: number): Promise<Record<string, never>>;
  /**
   * The bare counterpart of a `shell` task: runs `command` with /bin/sh and returns what it
   * printed; `inputs` (its dependencies' outputs) ride in the activity's input, as a hand-written
   * fan-out would pass them.
   */
  bareShell(key: string, command: string, inputs: Record<string, unknown>): Promise<{ output: string }>;
}

export const bareActivities: BareActivities = {
  async bareNoop() {
    return {};
  },
  async bareSleep(_key, ms) {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return {};
  },
  bareShell(_key, command) {
    return new Promise((resolve, reject) => {
      execFile('/bin/sh', ['-c', command], { maxBuffer: 1024 * 1024 }, (err, stdout) =>
        err ? reject(err) : resolve({ output: stdout }),
      );
    });
  },
};
