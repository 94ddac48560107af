import type { LiveBudget } from './executors/types';
/** What the gateway answers a task's request. */
export type GatewayAnswer = {
    ok: true;
    answer: unknown;
} | {
    ok: false;
    code: string;
    message: string;
};
/** `teamrun reserve`: the attempt's live reservation asked first; granted, or refused (the attempt is then stopped). */
export declare function reserve(attempt: {
    budget?: LiveBudget;
}, body: unknown): Promise<[number, GatewayAnswer]>;
