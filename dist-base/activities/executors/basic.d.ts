/** Sleeps `ms` (the heartbeat keeps the lease meanwhile); for demos and benchmarks. */
export declare const sleepExecutor: import("./define").DefinedExecutor<{
    ms: number;
}>;
/** Returns at once. */
export declare const noopExecutor: import("./define").DefinedExecutor<Record<string, never>>;
