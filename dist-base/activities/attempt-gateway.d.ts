import { type Client } from '@temporalio/client';
import type { LiveBudget } from './executors/types';
import type { AskRun } from './live-budget';
import { type GatewayAnswer } from './gateway-reserve';
export type { GatewayAnswer };
import type { AttemptAccess, AttemptIdentity, ConfirmAttemptRequest } from './interface';
import { Redactor, type Secret } from './redact';
export declare const GATEWAY_LIMITS: {
    /** A request's JSON body (an addTasks request's tasks are at most MAX_SPAWN_BYTES of it). */
    readonly requestBytes: number;
    /** How long a nonce waits for its run to ask about it. */
    readonly nonceTtlMs: 60000;
    /** Nonces held at once; past it the oldest is forgotten (its run is then told no). */
    readonly nonces: 4096;
    /** How long the gateway waits for the run's verdict. */
    readonly updateTimeoutMs: 60000;
};
export interface GatewayOptions {
    /** The worker's own client: its data converter (codec) encodes what the gateway sends. */
    client: Client;
    /** The worker's stop queue, where its run asks for confirmations. */
    queue: string;
    /** The worker's secrets; each attempt's redactor adds the attempt's own. */
    secrets: ReadonlyArray<Secret>;
}
export declare class AttemptGateway {
    private readonly options;
    private readonly dir;
    readonly socket: string;
    /** Holds the `teamrun` launcher of this worker's own CLI; null when the CLI is not beside the code. */
    readonly binDir: string | null;
    private readonly server;
    private readonly attempts;
    private readonly nonces;
    /** Every attempt gets a secret, noop ones too: drawn from a pool, not one system call each. */
    private readonly secrets;
    private constructor();
    /** Listens in a new private directory under the system's temporary directory. */
    static start(options: GatewayOptions): Promise<AttemptGateway>;
    /**
     * Registers an attempt as it starts: its secret, and its redactor (the worker's secrets and
     * this one). `close` drops it when the attempt ends; its secret then opens nothing.
     */
    open(identity: AttemptIdentity, options?: {
        journalQueue?: string;
    }): OpenedAttempt;
    /** The run's question: did this gateway send that request, for an attempt still running? Once per nonce. */
    confirm(request: ConfirmAttemptRequest): boolean;
    close(): Promise<void>;
    private serve;
    /** The task's request, sent as its attempt: identity filled in here, redacted, with a nonce to confirm. */
    private forward;
    /**
     * An agent attempt's step in its task's journal, with the attempt's own fencing token: the
     * journal refuses a token lower than one it has seen. The first step of the task starts it.
     */
    private journal;
    private remember;
}
/** What one attempt's registration gives its worker. */
export interface OpenedAttempt {
    access: AttemptAccess;
    redactor: Redactor;
    close(): void;
    /** `teamrun reserve` inside the task asks this reservation. */
    attachBudget(budget: LiveBudget): void;
    /** Asks the run for more budget as this attempt (`extendReservation`, confirmed like every attempt message). */
    extend: AskRun;
}
