/**
 * The shared ledger's message payloads: zod schemas, the ledger's workflow id, and the error a
 * refused request raises. Parsing only; the rules are in src/ledger/rules.ts, the Temporal side in
 * src/ledger/workflow.ts.
 */
import { z } from 'zod';
import { TeamrunError } from '../../errors';
export { LedgerIdSchema } from '../schema';
/** The ledger's workflow id; also the actor its cascade aborts carry. */
export declare const ledgerWorkflowId: (id: string) => string;
export declare const ledgerActor: typeof ledgerWorkflowId;
export declare const LedgerLimitsSchema: z.ZodObject<{
    maxConcurrent: z.ZodOptional<z.ZodNumber>;
    maxTokens: z.ZodOptional<z.ZodNumber>;
    maxUsd: z.ZodOptional<z.ZodNumber>;
    windowMs: z.ZodOptional<z.ZodNumber>;
}, z.core.$strict>;
export type LedgerLimits = z.infer<typeof LedgerLimitsSchema>;
export declare const RegisterRequestSchema: z.ZodObject<{
    workflowId: z.ZodString;
    name: z.ZodOptional<z.ZodString>;
}, z.core.$strict>;
export type RegisterRequest = z.infer<typeof RegisterRequestSchema>;
export declare const UnregisterRequestSchema: z.ZodObject<{
    workflowId: z.ZodString;
}, z.core.$strict>;
export type UnregisterRequest = z.infer<typeof UnregisterRequestSchema>;
export declare const AcquireRequestSchema: z.ZodObject<{
    attemptId: z.ZodString;
    workflowId: z.ZodString;
    reservation: z.ZodObject<{
        tokens: z.ZodNumber;
        usd: z.ZodNumber;
    }, z.core.$strict>;
    leaseMs: z.ZodNumber;
}, z.core.$strict>;
export type AcquireRequest = z.infer<typeof AcquireRequestSchema>;
export declare const SettleRequestSchema: z.ZodObject<{
    attemptId: z.ZodString;
    usage: z.ZodNullable<z.ZodObject<{
        inputTokens: z.ZodOptional<z.ZodNumber>;
        outputTokens: z.ZodOptional<z.ZodNumber>;
        cacheTokens: z.ZodOptional<z.ZodNumber>;
        model: z.ZodOptional<z.ZodString>;
        costUsd: z.ZodOptional<z.ZodNumber>;
        unpricedTokens: z.ZodOptional<z.ZodNumber>;
    }, z.core.$strict>>;
    lost: z.ZodOptional<z.ZodObject<{
        reservation: z.ZodObject<{
            tokens: z.ZodNumber;
            usd: z.ZodNumber;
        }, z.core.$strict>;
        workflowId: z.ZodString;
    }, z.core.$strict>>;
}, z.core.$strict>;
export type SettleRequest = z.infer<typeof SettleRequestSchema>;
/**
 * A running attempt's slot grows by `extension`: its run granted the attempt that much more. `extensionId` is the
 * run's name for this one extension, so a retried request grows the slot once.
 */
export declare const ExtendRequestSchema: z.ZodObject<{
    attemptId: z.ZodString;
    extensionId: z.ZodString;
    extension: z.ZodObject<{
        tokens: z.ZodNumber;
        usd: z.ZodNumber;
    }, z.core.$strict>;
}, z.core.$strict>;
export type ExtendRequest = z.infer<typeof ExtendRequestSchema>;
export declare const RenewRequestSchema: z.ZodObject<{
    attemptId: z.ZodString;
}, z.core.$strict>;
export type RenewRequest = z.infer<typeof RenewRequestSchema>;
export declare const AbortAllRequestSchema: z.ZodObject<{
    reason: z.ZodOptional<z.ZodString>;
    actor: z.ZodOptional<z.ZodString>;
}, z.core.$strict>;
export type AbortAllRequest = z.infer<typeof AbortAllRequestSchema>;
/** New limits; a loosening needs `force` and the `actor` who forces it. */
export declare const ConfigureRequestSchema: z.ZodObject<{
    limits: z.ZodObject<{
        maxConcurrent: z.ZodOptional<z.ZodNumber>;
        maxTokens: z.ZodOptional<z.ZodNumber>;
        maxUsd: z.ZodOptional<z.ZodNumber>;
        windowMs: z.ZodOptional<z.ZodNumber>;
    }, z.core.$strict>;
    force: z.ZodOptional<z.ZodBoolean>;
    actor: z.ZodOptional<z.ZodString>;
}, z.core.$strict>;
export type ConfigureRequest = z.infer<typeof ConfigureRequestSchema>;
/**
 * An operator settles a ledger's lost attempts: the usage they had (`usage`, all of them together) or their
 * reservations as the charge (`release`); exactly one of the two.
 */
export declare const ResolveRequestSchema: z.ZodObject<{
    usage: z.ZodOptional<z.ZodObject<{
        inputTokens: z.ZodOptional<z.ZodNumber>;
        outputTokens: z.ZodOptional<z.ZodNumber>;
        cacheTokens: z.ZodOptional<z.ZodNumber>;
        model: z.ZodOptional<z.ZodString>;
        costUsd: z.ZodOptional<z.ZodNumber>;
        unpricedTokens: z.ZodOptional<z.ZodNumber>;
    }, z.core.$strict>>;
    release: z.ZodOptional<z.ZodLiteral<true>>;
    actor: z.ZodString;
}, z.core.$strict>;
export type ResolveRequest = z.infer<typeof ResolveRequestSchema>;
/** A malformed ledger request: `code` is stable, the message names the field. */
export declare class LedgerRequestError extends TeamrunError {
    readonly code = "invalid_ledger_request";
    constructor(message: string);
}
export declare function parseLedgerRequest<T>(schema: z.ZodType<T>, payload: unknown, message: string): T;
