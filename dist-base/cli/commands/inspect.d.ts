import { type Command } from 'commander';
import type { TaskStatus } from '../../contract';
/** The words `status` and the progress line use for groups of task states. */
export declare const STATUS_ALIASES: Readonly<Record<string, readonly TaskStatus[]>>;
/** A task state of the contract, or a summary word standing for some (`pending` = ready or blocked). */
export declare function taskStatusOption(value: string): TaskStatus[];
/** `status` and `tasks`: read-only views of one run, open or closed. */
export declare function registerInspect(program: Command): void;
