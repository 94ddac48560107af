import type { Command } from 'commander';
export declare function registerWatch(program: Command): void;
