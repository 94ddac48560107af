import type { RunContext } from './context';
import type { Claim } from './types';
/** Leases every task that may start now: free teammate, dependencies met, scope free, budget reserved. */
export declare function claim(run: RunContext, now: number): Claim[];
/** The lease TTL and heartbeat pace of task `i`'s attempts: its own lease, or the plan's. */
export declare function leaseTimes(run: RunContext, i: number): {
    ttlMs: number;
    heartbeatEveryMs: number;
};
