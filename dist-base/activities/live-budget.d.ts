/**
 * An attempt's live reservation on its worker (the ExecutorContext's `budget`): usage is priced and
 * counted as it is reported, and past the grant the attempt asks its run for the overshoot
 * (`extendReservation`, through the attempt gateway). `reserve` asks before spending. A refusal
 * (or a run that cannot be reached: it fails closed) stops the attempt: `TEAM_TASK_BUDGET_EXCEEDED`.
 */
import type { Price } from '../config/config';
import type { Usage } from '../plan/schema';
import type { Grant } from '../team/types';
import type { LiveBudget } from './executors/types';
/** The failure type, and adjudication code, of an attempt its run refused more budget. */
export declare const BUDGET_EXCEEDED: import("../contract/adjudication").AdjudicationCode;
/** How the attempt asks its run for more: what it holds now once granted, or the refusal's code. */
export type AskRun = (extension: {
    tokens?: number;
    usd?: number;
}) => Promise<{
    ok: true;
    granted: {
        tokens: number;
        usd: number;
    };
} | {
    ok: false;
    code: string;
    message: string;
}>;
type Amount = {
    tokens: number;
    usd: number;
};
/**
 * A refused `reserve` stops the attempt this long after it answers: the process that asked (`teamrun
 * reserve`, exit 3) can see the refusal. Nothing it spends meanwhile was granted, and it is charged.
 */
export declare const RESERVE_STOP_GRACE_MS = 1000;
export declare class AttemptBudget implements LiveBudget {
    private readonly limited;
    private readonly prices;
    private readonly ask;
    private readonly onRefused;
    readonly granted: Amount;
    readonly used: Amount;
    /** Why the run refused, once it did: the attempt is being stopped. */
    refusal: {
        code: string;
        message: string;
    } | null;
    /** Reserved through `reserve` and not yet reported. */
    private readonly promised;
    /** One ask at a time, in order: two asks never both count the same part of the grant. */
    private queue;
    constructor(limited: Grant, prices: ReadonlyMap<string, Price> | Record<string, Price>, ask: AskRun, onRefused: (refusal: {
        code: string;
        message: string;
    }) => void);
    reserve(ask: {
        tokens?: number;
        usd?: number;
    }): Promise<boolean>;
    report(usage: Usage): Promise<boolean>;
    /** What the grant lacks to cover usage, what was promised and `more`; null when it covers them. */
    private shortBy;
    /** `graceMs`: how long the refused attempt's processes have to hear the answer before they are stopped. */
    private extend;
    private serially;
}
export {};
