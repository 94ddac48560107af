import type { Command } from 'commander';
export declare function registerReport(program: Command): void;
