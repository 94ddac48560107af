/**
 * An agent task's transcript as `teamrun logs RUN KEY` prints it, read from the task's journal
 * (src/agent). Redacted when journaled: the worker's secrets never reached it.
 */
import { type Client } from '@temporalio/client';
import { type JournalSnapshot } from '../agent/types';
/** The journal of `key`, or null when the task has none (not an agent, or never started). */
export declare function readTranscript(client: Client, workflowId: string, key: string): Promise<JournalSnapshot | null>;
/** One line or block per step: model, tool and system steps told apart by their tag. */
export declare function renderTranscript(journal: JournalSnapshot): string;
