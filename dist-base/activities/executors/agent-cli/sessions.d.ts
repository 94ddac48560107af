import type { AttemptIdentity } from '../../interface';
export declare function isSessionId(value: string): boolean;
/**
 * The last session of a task's CLI on this worker, so that its next attempt (a retry, an
 * adjudicated retry) resumes it. Kept on the worker because the CLIs keep their sessions on the
 * machine they ran on (~/.claude, ~/.codex, ~/.gemini); the id is also in the attempt's output
 * and failure evidence, so a human deciding an adjudication sees it. Removed when the task succeeds.
 */
export declare class SessionStore {
    private readonly file;
    constructor(identity: Pick<AttemptIdentity, 'workflowId' | 'taskKey'>, cli: string, dir?: string);
    load(): {
        sessionId: string;
        cwd: string | null;
    } | undefined;
    save(sessionId: string, cwd: string | undefined): void;
    remove(): void;
}
