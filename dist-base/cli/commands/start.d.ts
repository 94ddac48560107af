import type { Command } from 'commander';
export declare function registerStart(program: Command): void;
