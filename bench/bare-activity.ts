/** The bare baseline's trivial activity: what a user who writes the fan-out by hand would run for a `noop` task. */
export interface BareActivities {
  bareNoop(key: string): Promise<Record<string, never>>;
}

export const bareActivities: BareActivities = {
  async bareNoop() {
    return {};
  },
};
