import { type JournalSnapshot } from './types';
export declare function agentJournal(snapshot: JournalSnapshot): Promise<JournalSnapshot>;
