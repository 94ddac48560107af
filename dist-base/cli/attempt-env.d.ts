import { CliError } from './context';
/**
 * The attempt a command runs inside of, from the variables a shell task's attempt has
 * (`teamrun inbox`, `send`, `add-tasks`); null outside a task.
 */
export declare function attemptFromEnv(): {
    workflowId: string;
    key: string;
    fencingToken: number;
} | null;
/** The worker's attempt gateway, when the command runs inside one of its attempts. */
export declare function gatewayFromEnv(): {
    socket: string;
    secret: string;
} | null;
/**
 * Sends a request to the run as the attempt, through its worker's gateway: the worker adds who it
 * is from and sends it with its own client and codec. Resolves with the run's verdict; a refusal
 * is a CliError with the run's code.
 */
export declare function askGateway<T>(gateway: {
    socket: string;
    secret: string;
}, message: 'sendMessage' | 'readInbox' | 'addTasks' | 'reserve', body: Record<string, unknown>): Promise<T>;
/** The gateway, or the run behind it, refused the request: `refusal` is its stable code. */
export declare class GatewayRefusal extends CliError {
    readonly refusal: string;
    constructor(message: string, refusal: string, detail: string);
}
