import type { ConnectionLike as Connection } from '@temporalio/client';
export interface SearchAttributeState {
    /** Registered with the right type. */
    present: string[];
    /** Not registered: `--fix` or the commands register them. */
    missing: string[];
    /** Registered with another type: only a new name or another namespace helps. */
    wrongType: Array<{
        name: string;
        expected: string;
        actual: string;
    }>;
}
/** Which of teamrun's four search attributes the namespace has (operator API `ListSearchAttributes`). */
export declare function searchAttributeState(connection: Connection, namespace: string): Promise<SearchAttributeState>;
/** Registers the named attributes (the caller needs the operator API's permission). */
export declare function registerSearchAttributes(connection: Connection, namespace: string, names: string[]): Promise<void>;
/**
 * The `temporal` CLI commands that register the named attributes, one a line. They name the
 * address in use: the `temporal` CLI's own default (127.0.0.1:7233) may be another server.
 */
export declare function searchAttributeCommands(namespace: string, names: string[], address: string): string[];
/** The address a client's connection dialled (a Connection keeps its options; other ConnectionLikes may not). */
export declare function connectionAddress(connection: Connection): string;
export interface Poller {
    identity: string;
    lastAccessTime: number | null;
}
/** The workers polling the task queue: workflow pollers and activity pollers, by identity. */
export declare function taskQueuePollers(connection: Connection, namespace: string, taskQueue: string): Promise<{
    workflow: Poller[];
    activity: Poller[];
}>;
