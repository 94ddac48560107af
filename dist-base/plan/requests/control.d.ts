/**
 * Control messages' payloads (interrupt, abort, adjudicate): their zod schemas and bounds, and
 * the error a refused one raises. Parsing only: whether a request applies is the run's rule
 * (src/team/takeover.ts, decisions.ts); the verdicts are declared in src/contract.
 */
import { z } from 'zod';
import { TeamrunError } from '../../errors';
/** A control request that cannot apply; `code` is the stable reason a client sees. */
export declare class TeamControlError extends TeamrunError {
    readonly code: string;
    /** The field that was wrong (`reason`, `result`), when one was. */
    readonly field: string | null;
    constructor(code: string, message: string, 
    /** The field that was wrong (`reason`, `result`), when one was. */
    field?: string | null);
}
/**
 * Bounds on every value a control message brings into the run's state. Past one, an update's
 * validator refuses it (`value_too_large`, naming the field) and a signal is recorded as
 * `control:rejected`: nothing oversized is ever held. docs/bounds.md lists them.
 */
export declare const MESSAGE_LIMITS: {
    /** requestId, actor, decisionId. */
    readonly idChars: 200;
    /** reason. */
    readonly reasonChars: 1000;
    readonly evidenceDigestChars: 256;
    /** An adjudication's `result`, as JSON: the same bound as a task's output. */
    readonly resultBytes: number;
};
/** Default code on the adjudications an abort creates; an `abortRun { code }` replaces it. */
export declare const ABORT_CODE_DEFAULT = "TEAM_RUN_ABORTED_ADJUDICATION_REQUIRED";
export declare const AbortCodeSchema: z.ZodString;
export declare const InterruptRequestSchema: z.ZodObject<{
    key: z.ZodString;
    fencingToken: z.ZodOptional<z.ZodUnion<readonly [z.ZodNumber, z.ZodPipe<z.ZodString, z.ZodTransform<number, string>>]>>;
    requestId: z.ZodOptional<z.ZodString>;
    actor: z.ZodOptional<z.ZodString>;
    reason: z.ZodOptional<z.ZodString>;
    evidenceDigest: z.ZodOptional<z.ZodString>;
}, z.core.$strip>;
export type InterruptRequest = z.infer<typeof InterruptRequestSchema>;
export declare const AbortRequestSchema: z.ZodObject<{
    code: z.ZodOptional<z.ZodString>;
    reason: z.ZodOptional<z.ZodString>;
    requestId: z.ZodOptional<z.ZodString>;
    actor: z.ZodOptional<z.ZodString>;
    requireAdjudication: z.ZodOptional<z.ZodBoolean>;
}, z.core.$strip>;
export type AbortRequest = z.infer<typeof AbortRequestSchema>;
export declare const DECISIONS: readonly ['retry', 'accept', 'reject'];
export type Decision = (typeof DECISIONS)[number];
export declare const AdjudicateRequestSchema: z.ZodObject<{
    key: z.ZodString;
    decision: z.ZodEnum<{
        accept: "accept";
        reject: "reject";
        retry: "retry";
    }>;
    decisionId: z.ZodString;
    actor: z.ZodOptional<z.ZodString>;
    reason: z.ZodOptional<z.ZodString>;
    evidenceDigest: z.ZodOptional<z.ZodString>;
    result: z.ZodOptional<z.ZodUnknown>;
}, z.core.$strip>;
export type AdjudicateRequest = z.infer<typeof AdjudicateRequestSchema>;
export declare const TIGHTENED_LIMITS: readonly ['maxTasks', 'maxTokens', 'maxUsd', 'maxWallMs'];
/**
 * `tightenBudget`: new limits for a running run, each only lower than (or equal to) the one it replaces; a limit the
 * plan did not set may be added. At least one limit; an unknown field (a typo) is refused.
 */
export declare const TightenBudgetRequestSchema: z.ZodObject<{
    maxTasks: z.ZodOptional<z.ZodNumber>;
    maxTokens: z.ZodOptional<z.ZodNumber>;
    maxUsd: z.ZodOptional<z.ZodNumber>;
    maxWallMs: z.ZodOptional<z.ZodNumber>;
    requestId: z.ZodOptional<z.ZodString>;
    actor: z.ZodOptional<z.ZodString>;
}, z.core.$strict>;
export type TightenBudgetRequest = z.infer<typeof TightenBudgetRequestSchema>;
/** Parses a control payload; a malformed one is a `TeamControlError` naming the field. */
export declare function parseControl<T>(schema: z.ZodType<T>, payload: unknown, message: string): T;
/**
 * Parses a request of `message` with `schema`; the first problem is thrown as a `TeamControlError`
 * saying where (`message: path: problem`), with `tooLarge` for a value past its bound and
 * `malformed(first path segment)` for anything else, and the path as its field when `withField`.
 */
export declare function parseRequest<T>(schema: z.ZodType<T>, payload: unknown, message: string, codes: {
    tooLarge: string;
    malformed: (field: PropertyKey | undefined) => string;
    withField: boolean;
}): T;
