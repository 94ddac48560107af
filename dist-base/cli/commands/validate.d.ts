import type { Command } from 'commander';
export declare function registerValidate(program: Command): void;
