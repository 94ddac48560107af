import type { Command } from 'commander';
export declare function registerQueue(program: Command): void;
