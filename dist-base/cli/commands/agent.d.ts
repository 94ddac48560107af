import type { Command } from 'commander';
/** `steer`: guidance for a running agent, joined before its next model call. */
export declare function registerAgent(program: Command): void;
