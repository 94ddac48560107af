import { type Client } from '@temporalio/client';
import { Option, type Command } from 'commander';
import { type TeamRunControls, type TeamRunHandle } from '../../client';
import { type TeamRunMessages } from '../../workflows/messages';
/** Who a control message says it comes from: `--actor`, else $TEAMRUN_ACTOR, else the login name. */
export declare function defaultActor(): string;
export declare const actorOption: () => Option;
/** Runs `fn` with a client and a handle on the run, closing the connection after. */
export declare function withRun<T>(command: Command, workflowId: string, fn: (handle: TeamRunHandle, client: Client) => Promise<T>): Promise<T>;
/** The handle's methods that send an update. */
type UpdateMethod = {
    [K in keyof TeamRunMessages]: TeamRunMessages[K] extends {
        readonly omitted: unknown;
    } ? K : never;
}[keyof TeamRunMessages];
/** Sends the update `method` through the handle; a refusal is a CliError naming the message and its code. */
export declare function update<K extends UpdateMethod>(handle: TeamRunHandle, method: K, ...args: Parameters<TeamRunControls[K]>): Promise<Awaited<ReturnType<TeamRunControls[K]>>>;
/** `claims`, `interrupt`, `abort`, `adjudications`, `adjudicate`: taking over and stopping a run. */
export declare function registerControl(program: Command): void;
export {};
