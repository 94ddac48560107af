import { type JournalAnswer, type JournalRefusal, type JournalRequest, type JournalSnapshot, type SteerRequest } from './types';
export declare class JournalRefused extends Error {
    readonly code: JournalRefusal;
    constructor(code: JournalRefusal, message: string);
}
export declare class JournalState {
    readonly snapshot: JournalSnapshot;
    private bytes;
    finished: boolean;
    constructor(snapshot: JournalSnapshot);
    /** Checks a request before it reaches history (the update's validator). */
    validate(request: JournalRequest): void;
    apply(request: JournalRequest): JournalAnswer;
    validateSteer(request: SteerRequest): void;
    /** Queues guidance for the next model call; answers which turn that is. */
    steer(request: SteerRequest): {
        turn: number;
    };
    private push;
}
