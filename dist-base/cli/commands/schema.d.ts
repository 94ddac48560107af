import type { Command } from 'commander';
export declare function registerSchema(program: Command): void;
