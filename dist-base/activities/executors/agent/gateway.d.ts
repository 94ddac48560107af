/**
 * The agent speaks to its run as its attempt through the worker's attempt gateway, as a shell
 * task's `teamrun send` does: its journal steps and teamrun's own tools (send_message, read_inbox,
 * add_tasks) all carry the attempt's identity and fencing token, filled in by the gateway.
 */
import type { JournalAnswer, JournalOp } from '../../../agent/types';
import type { AttemptAccess } from '../../interface';
/** A refusal from the gateway or the run, with its stable code. */
export declare class GatewayRefusal extends Error {
    readonly code: string;
    constructor(code: string, message: string);
}
export declare class AgentGateway {
    private readonly access;
    private readonly signal;
    constructor(access: AttemptAccess, signal: AbortSignal);
    journal<Op extends JournalOp['op']>(request: Extract<JournalOp, {
        op: Op;
    }>): Promise<Extract<JournalAnswer, {
        op: Op;
    }>>;
    post<T>(path: 'journal' | 'sendMessage' | 'readInbox' | 'addTasks', body: object): Promise<T>;
}
