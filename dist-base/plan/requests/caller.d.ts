/**
 * Who a request says it is from: the optional `actor` and the worker's proof (`attempt`) that any
 * message may carry beside its own fields. Parsing only: whether that caller may send it is the
 * run's rule (src/team/governance.ts).
 */
import { z } from 'zod';
export declare const AttemptProofSchema: z.ZodObject<{
    queue: z.ZodString;
    nonce: z.ZodString;
}, z.core.$strict>;
/** Who a request says it is from, and the request without the proof (which its own schema does not know). */
export interface Caller {
    actor?: string;
    attempt?: z.infer<typeof AttemptProofSchema>;
    request: unknown;
}
export declare function callerOf(payload: unknown, message: string): Caller;
