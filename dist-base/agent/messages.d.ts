import type { JournalAnswer, JournalRequest, JournalSnapshot, SteerRequest } from './types';
/** An attempt's step (open, append, beginTurn, finish), fenced: a lower token than the journal's is refused. */
export declare const journalUpdate: import("@temporalio/common").UpdateDefinition<JournalAnswer, [JournalRequest], string>;
/** A person's guidance for the agent's next model call; answers `{ turn }`. */
export declare const steerUpdate: import("@temporalio/common").UpdateDefinition<{
    turn: number;
}, [SteerRequest], string>;
/** The transcript so far (`teamrun logs RUN KEY` prints it). */
export declare const transcriptQuery: import("@temporalio/workflow").QueryDefinition<JournalSnapshot, [], string>;
