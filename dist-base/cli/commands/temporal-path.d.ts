import type { Command } from 'commander';
export declare function registerTemporalPath(program: Command): void;
