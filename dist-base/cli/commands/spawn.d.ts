import { type Command } from 'commander';
/** `add-tasks`: grow a running run, from inside one of its tasks (fenced) or from outside (governed). */
export declare function registerSpawn(program: Command): void;
