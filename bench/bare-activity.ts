/** The bare baseline's trivial activity: what a user who writes the fan-out by hand would run for a `noop` task. */
export interface BareActivities {
  bareNoop(key: string): Promise<Record<string, never>>;
  /** The bare counterpart of a `sleep` task, for the 1,000-teammate comparison. */
  bareSleep(key: string, ms: number): Promise<Record<string, never>>;
}

export const bareActivities: BareActivities = {
  async bareNoop() {
    return {};
  },
  async bareSleep(_key, ms) {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return {};
  },
};
