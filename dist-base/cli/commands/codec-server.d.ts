import type { Command } from 'commander';
export declare function registerCodecServer(program: Command): void;
