import type { Command } from 'commander';
export declare function registerWorker(program: Command): void;
