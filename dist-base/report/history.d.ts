import { type History } from '../sdk/proto';
import type { HistoryFacts } from './history-facts';
/** Decodes the histories of one team run, oldest run first (several when it continued as new). */
/** `workflowId`: the run's, which a compact attempt input leaves out (its lease id names it). */
export declare function readHistories(histories: History[], workflowId?: string): HistoryFacts;
