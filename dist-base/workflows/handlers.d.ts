import type { TeamRun } from '../team/run';
import { type QueryMessage, type SignalMessage, type TeamRunMessages, type UpdateMessage } from './messages';
import type { LedgerExtensions } from '../ledger/run-ledger';
/** What an update calls: its validator's check and the rule that applies it. */
export interface UpdateRule<Ret, Request> {
    validate: (request: Request) => void;
    /** A promise where the rule must ask elsewhere before it answers (an extension the shared ledger must grant too). */
    apply: (request: Request) => Ret | Promise<Ret>;
    /**
     * For a message a task may send as its attempt (sendMessage, readInbox, addTasks): the task and token
     * its worker is asked to confirm before the run takes the request as the task's.
     */
    sentBy?: (request: Request) => {
        key: string;
        fencingToken: unknown;
    };
}
type RuleOf<M> = M extends QueryMessage<infer Ret, infer Args> ? (...args: Args) => Ret : M extends SignalMessage<infer Args> ? (...args: Args) => void : M extends UpdateMessage<infer Ret, infer Request> ? UpdateRule<Ret, Request> : never;
/** The rule of every message of the table: a message without one does not compile. */
export type MessageRules = {
    [K in keyof TeamRunMessages]: RuleOf<TeamRunMessages[K]>;
};
/** Each message mapped to the run's rule; the views that hold timestamps get their ISO twins here. */
export declare function messageRules(run: TeamRun, now: () => number, ledger?: LedgerExtensions): MessageRules;
export declare function registerHandlers(run: TeamRun, ledger?: LedgerExtensions): void;
export {};
