import type { Command } from 'commander';
export declare function registerDemo(program: Command): void;
