import type { Command } from 'commander';
/** Each command group lives in its own module and registers itself here. */
export declare function registerCommands(program: Command): void;
