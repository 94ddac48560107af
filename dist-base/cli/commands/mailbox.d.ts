import { type Command } from 'commander';
/** `inbox`, `send`, `messages`, `members`: the teammates' mailbox, from inside a task and from outside. */
export declare function registerMailbox(program: Command): void;
