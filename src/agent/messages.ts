/** The journal workflow's messages, defined once for the workflow, the worker's gateway and the CLI. */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { JournalAnswer, JournalRequest, JournalSnapshot, SteerRequest } from './types';

/** An attempt's step (open, append, beginTurn, finish), fenced: a lower token than the journal's is refused. */
export const journalUpdate = defineUpdate<JournalAnswer, [JournalRequest]>('journal');
/** A person's guidance for the agent's next model call; answers `{ turn }`. */
export const steerUpdate = defineUpdate<{ turn: number }, [SteerRequest]>('steer');
/**
 * The run's word that mail came for the task, up to message `upTo` (src/workflows/mail-hints.ts): the agent reads its
 * inbox before its next model call only then. A hint, not a message: the mail itself is read from the run.
 */
export const mailHintSignal = defineSignal<[{ upTo: number }]>('mailHint');
/** The transcript so far (`teamrun logs RUN KEY` prints it). */
export const transcriptQuery = defineQuery<JournalSnapshot>('transcript');
